package sage

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	csage "github.com/leolab/leolab/cc/sage"
)

// gruOf is the trainable GRU holding pf's weights (the inverse of
// gru.file; float32 → float64 is exact).
func gruOf(t *testing.T, pf *csage.PolicyFile) *gru {
	t.Helper()
	m := newGRU(pf.In, pf.Hidden, pf.Window, rand.New(rand.NewPCG(1, 2))) // initial weights overwritten below
	for _, c := range []struct {
		off int
		v   []float32
	}{{m.oWz, pf.Wz}, {m.oBz, pf.Bz}, {m.oWr, pf.Wr}, {m.oBr, pf.Br}, {m.oWn, pf.Wn}, {m.oBn, pf.Bn}, {m.oV, pf.V}, {m.oC, []float32{pf.C}}} {
		for i, x := range c.v {
			m.p[c.off+i] = float64(x)
		}
	}
	if got := m.file(nil); len(got.Wz) != len(pf.Wz) || got.C != pf.C || got.V[pf.Hidden-1] != pf.V[pf.Hidden-1] {
		t.Fatalf("gru of %d hidden units does not round-trip the file", pf.Hidden)
	}
	return m
}

// cc/sage's allocation-free inference (Policy.Act) and the training
// forward pass (gru.mu) give the same action for the embedded weights
// over the states of real runs: Sage's features of CUBIC and BBRv3 on
// two links of the pool's distribution, 5 s each (≈ 250 states per run,
// saturated and unsaturated actions both). The two passes do the same
// float64 operations in the same order, so they differ by Act's final
// rounding to float32: half an ulp, |a|·2⁻²⁴, at most 1.2e-7 for |a| ≤ 2;
// 1e-12 more allows a compiler's fused multiply-adds in one of them.
func TestEmbeddedPolicyMatchesTraining(t *testing.T) {
	pol := csage.DefaultPolicy()
	m := gruOf(t, pol.File())
	d := PoolDist()
	d.Duration = 5 * time.Second
	trs, err := Collect(d, []string{"cubic", "bbr3"}, 11, 0, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	n, inner, worst := 0, 0, 0.0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, tr := range trs {
		for i := range tr.Len() {
			s := tr.State(i)
			got, want := float64(pol.Act(s)), m.mu(s)
			d := math.Abs(got - want)
			if tol := math.Abs(want)*0x1p-24 + 1e-12; d > tol {
				t.Fatalf("%s %v, state %d: inference %v, training %v (|Δ| %.3g > %.3g)", tr.CCA, tr.Episode, i, got, want, d, tol)
			}
			worst = max(worst, d)
			lo, hi = min(lo, want), max(hi, want)
			n++
			if math.Abs(want) < 0.99*csage.ActionMax {
				inner++
			}
		}
	}
	// The states must exercise the network: many, mostly off the
	// head's tanh saturation, and actions spread over a tenth of a
	// doubling at least.
	if n < 500 || inner < n/10 || hi-lo < 0.1 {
		t.Fatalf("%d states, %d with an unsaturated action, actions in [%.3f, %.3f]: want ≥ 500, ≥ 10 %% unsaturated, a spread ≥ 0.1", n, inner, lo, hi)
	}
	t.Logf("%d states (%d unsaturated, actions in [%.3f, %.3f]): largest |Act − mu| %.3g", n, inner, lo, hi, worst)
}
