package seq

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/pkg/core/tensors"

	"github.com/leolab/leolab/learn"
)

// randomize sets every model variable to N(0, 0.5²) (LayerNorm gains
// around 1), so that every term of the pass counts, LoRA's zero-started
// B included.
func randomize(t testing.TB, m *Model, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	for v := range m.ctx.IterVariables() {
		k := varKey(v)
		if !isModelVar(k) {
			continue
		}
		vals := make([]float32, v.Shape().Size())
		for i := range vals {
			vals[i] = float32(0.5 * rng.NormFloat64())
			if v.Name() == "weight" && v.Shape().Rank() == 1 { // a LayerNorm gain
				vals[i] += 1
			}
		}
		tt := tensors.FromFlatDataAndDimensions(vals, v.Shape().Dimensions...)
		if err := v.SetValue(tt); err != nil {
			t.Fatal(err)
		}
	}
}

// windowOf builds Forward's input from row n of batch b.
func windowOf(f *Forward, b *Batch, n int) *Window {
	d := f.cfg.Width
	in := &Window{States: make([]float32, b.W*d), Return: b.Return[n*b.W : (n+1)*b.W],
		Action: b.Action[n*b.W : (n+1)*b.W], Phase: learn.Phase(b.Phase[n*b.W+b.W-1])}
	for k := range b.W {
		var x Features
		copy(x[:], b.X[(n*b.W+k)*NumFeatures:])
		f.EncodeState(in.States[k*d:(k+1)*d], &x)
	}
	return in
}

// The plain-Go pass computes what the gomlx graph computes: on real
// Sydney windows, with random weights, the last state token's feasible
// logits agree within float32 rounding, for the default model and for a
// tiny GPT-2 backbone with LoRA adapters.
func TestForwardMatchesGraph(t *testing.T) {
	seqs := realSequences(t)
	for _, tc := range backboneModels(t) {
		m := tc.m
		randomize(t, m, 5)
		b := sampleBatch(seqs, m.Config.Window)
		want, err := m.Logits(b)
		if err != nil {
			t.Fatal(err)
		}
		f, err := m.Forward()
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float32, NumActions)
		var worst, scale float64
		checked := 0
		for n := range b.N {
			f.Logits(got, windowOf(f, b, n))
			ph := learn.Phase(b.Phase[n*b.W+b.W-1])
			ref := want[(n*b.W+b.W-1)*NumActions:]
			for k, a := range learn.Actions {
				if !learn.IsFeasible(ph, a) {
					if got[k] > maskValue/2 {
						t.Fatalf("%s: window %d: infeasible gain %g has logit %g", tc.name, n, a, got[k])
					}
					continue
				}
				worst = max(worst, math.Abs(float64(got[k]-ref[k])))
				scale = max(scale, math.Abs(float64(ref[k])))
				checked++
			}
		}
		t.Logf("%s: %d windows, %d logits: largest |difference| %.3g (largest |logit| %.3g)", tc.name, b.N, checked, worst, scale)
		// The graph sums in float32 (ulp 6e-8 relative) through ~10
		// layers of ~100-term sums; this pass in float64: the difference
		// is the graph's rounding, about 1e-6 of the largest logit.
		if tol := 2e-6 * max(1, scale); worst > tol || checked == 0 {
			t.Errorf("%s: largest difference %.3g over %d logits, want ≤ %.3g", tc.name, worst, checked, tol)
		}
	}
}

// LogitsLast, which reuses the previous pass's keys and values, gives
// what a full pass of the changed window gives, to the bit: the last
// state token and the phase replaced by another window's.
func TestLogitsLastEqualsFull(t *testing.T) {
	seqs := realSequences(t)
	for _, tc := range backboneModels(t) {
		m := tc.m
		randomize(t, m, 8)
		f, err := m.Forward()
		if err != nil {
			t.Fatal(err)
		}
		b := sampleBatch(seqs, m.Config.Window)
		d, w := m.Config.Width, m.Config.Window
		inc, full := make([]float32, NumActions), make([]float32, NumActions)
		for n := 0; n+1 < b.N; n++ {
			win, other := windowOf(f, b, n), windowOf(f, b, n+1)
			f.Logits(inc, win)
			copy(win.States[(w-1)*d:], other.States[(w-1)*d:])
			win.Phase = other.Phase
			f.LogitsLast(inc, win)
			f.Logits(full, win)
			if !slices.Equal(inc, full) {
				t.Fatalf("%s: window %d: LogitsLast %v, a full pass %v", tc.name, n, inc, full)
			}
		}
	}
}
