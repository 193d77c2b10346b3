package counterfactual

import (
	"math"
	"reflect"
	"testing"

	"github.com/leolab/leolab/cc/bbr"
	"github.com/leolab/leolab/learn"
)

// The same scenario and seed give the same labels, rewards and rows,
// with one worker or two: replays are deterministic and merge in
// decision order.
func TestLabelDeterministic(t *testing.T) {
	src := []Source{{Build: specOf(t, sydney20), Pool: learn.Source{Location: "sydney", Stream: "downlink-sim", Flow: "cf"}}}
	one, err := Label(src, Options{Every: 4, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	two, err := Label(src, Options{Every: 4, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(one[0].Decisions) < 2 {
		t.Fatalf("%d decisions in 20 s, want ≥ 2", len(one[0].Decisions))
	}
	if !reflect.DeepEqual(one, two) {
		t.Fatal("labels differ between 1 and 2 workers")
	}
	n := 0
	for _, r := range one[0].Rows {
		if r.LabelSource != learn.LabelCounterfactual {
			continue
		}
		n++
		if !learn.IsFeasible(r.Phase, r.Action) || len(r.GainRewards) != len(learn.Feasible(r.Phase)) {
			t.Errorf("row %d %v: action %g, %d rewards", r.Index, r.Phase, r.Action, len(r.GainRewards))
		}
	}
	if n != len(one[0].Decisions) {
		t.Errorf("%d labelled rows for %d decisions", n, len(one[0].Decisions))
	}
	for _, d := range one[0].Decisions {
		t.Logf("%v at %v: label %g (surrogate %g, eq.3 %g) rewards %v", d.Phase, d.Entry.At.T, d.Outcomes[d.Best].Gain, d.Surrogate, d.Mapped, one[0].Rows[d.Row].GainRewards)
	}
}

// Physics: on a lossless fixed link (a buffer of several BDPs) a CBR
// flow leaves at 8 s and frees half the capacity; at BBR's first UP
// after that, a higher gain delivers at least as fast over the cycle as a
// lower one (it finds the spare capacity sooner), and nothing is
// retransmitted.
func TestHigherUpGainFindsSpareCapacity(t *testing.T) {
	const text = "version: 1\nname: spare\nduration: 20s\nseed: 1\ninterval: 1s\n" +
		"path: {profile: fixed, rate: 50Mbps, rtt: 40ms, queue: {discipline: droptail, limit_bytes: 4MB}}\n" +
		"flows:\n  - {cca: bbr}\n  - {cca: cbr, rate: 25Mbps, packet_size: 1200, stop: 8s}\n"
	build := specOf(t, text)
	base, err := Base(build)
	if err != nil {
		t.Fatal(err)
	}
	var e Entry
	for _, x := range base.Entries {
		if x.Phase == bbr.GainUp && x.At.T > 8e9 {
			e = x
			break
		}
	}
	if e.Phase != bbr.GainUp {
		t.Fatal("no UP entry after the CBR flow stopped")
	}
	prev := 0.0
	for _, g := range learn.Feasible(learn.Up) {
		w, err := Replay(build, e, g, 0)
		if err != nil {
			t.Fatal(err)
		}
		tput := float64(w.Delivered()) * 8 / w.Duration().Seconds()
		t.Logf("UP at %v gain %.2f: %.3f Mbit/s over %v, %d retransmits", e.At.T, g, tput/1e6, w.Duration(), w.Retransmits())
		if w.Truncated || w.Retransmits() != 0 {
			t.Errorf("gain %g: truncated %v, %d retransmits on a lossless link", g, w.Truncated, w.Retransmits())
		}
		if tput < prev {
			t.Errorf("gain %g: %.0f bit/s < %.0f bit/s of the next lower gain", g, tput, prev)
		}
		prev = tput
	}
}

// With K > 1 replays per gain the labels are as deterministic as with
// one: the dither offsets are fixed by K, the replays merge by index.
func TestLabelReplaysDeterministic(t *testing.T) {
	src := []Source{{Build: specOf(t, sydney20), Pool: learn.Source{Location: "sydney", Stream: "downlink-sim", Flow: "cf"}}}
	one, err := Label(src, Options{Every: 4, Workers: 1, Replays: 2})
	if err != nil {
		t.Fatal(err)
	}
	two, err := Label(src, Options{Every: 4, Workers: 2, Replays: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(one[0].Decisions) < 2 {
		t.Fatalf("%d decisions in 20 s, want ≥ 2", len(one[0].Decisions))
	}
	if !reflect.DeepEqual(one, two) {
		t.Fatal("labels with --replays 2 differ between 1 and 2 workers")
	}
	for _, d := range one[0].Decisions {
		for _, o := range d.Outcomes {
			if o.Spread < 0 || math.IsNaN(o.Spread) {
				t.Errorf("%v at %v gain %g: spread %g", d.Phase, d.Entry.At.T, o.Gain, o.Spread)
			}
		}
	}
}

func TestDither(t *testing.T) {
	if d := Dither(1); len(d) != 1 || d[0] != 0 {
		t.Errorf("Dither(1) = %v, want [0]", d)
	}
	d := Dither(4)
	want := []float64{-0.00375, -0.00125, 0.00125, 0.00375}
	for i := range want {
		if math.Abs(d[i]-want[i]) > 1e-15 {
			t.Errorf("Dither(4) = %v, want %v", d, want)
			break
		}
	}
	// every dithered gain stays nearer its own gain than any neighbour
	for _, ph := range []learn.Phase{learn.Up, learn.Down} {
		gs := learn.Feasible(ph)
		for i := 1; i < len(gs); i++ {
			if gs[i-1]*(1+DitherWidth) >= (gs[i-1]+gs[i])/2 || gs[i]*(1-DitherWidth) <= (gs[i-1]+gs[i])/2 {
				t.Errorf("%v: dither ±%g crosses the midpoint of %g and %g", ph, DitherWidth, gs[i-1], gs[i])
			}
		}
	}
}

// Averaging over the dither shrinks the label noise (the best gain's
// mean reward moved by replaying it at g·(1+1e-3)): on sydney20 every
// decision, the mean noise over the decisions with K = 4 is below K = 1's
// (see the bound below for its derivation from the measurement).
func TestReplaysShrinkNoise(t *testing.T) {
	if testing.Short() {
		t.Skip("≈ 250 replays")
	}
	src := []Source{{Build: specOf(t, sydney20), Pool: learn.Source{Location: "sydney", Stream: "downlink-sim", Flow: "cf"}}}
	mean := func(k int) (float64, int) {
		ls, err := Label(src, Options{Every: 1, Workers: 2, Replays: k, Noise: true})
		if err != nil {
			t.Fatal(err)
		}
		s, n := 0.0, 0
		for _, d := range ls[0].Decisions {
			s += d.Noise
			n++
			t.Logf("K=%d %v at %v: margin %.4f noise %.4f", k, d.Phase, d.Entry.At.T, d.Margin(), d.Noise)
		}
		return s / float64(n), n
	}
	n1, d1 := mean(1)
	n4, d4 := mean(4)
	t.Logf("mean noise K=1 %.5f (%d decisions), K=4 %.5f (%d); ratio %.3f, 1/√4 = 0.5 for independent draws", n1, d1, n4, d4, n4/n1)
	if d1 < 6 || d4 < 6 {
		t.Fatalf("%d, %d decisions, want ≥ 6", d1, d4)
	}
	if !(n4 < noiseRatioBound*n1) {
		t.Errorf("mean noise K=4 %.5f ≥ %.2f × K=1's %.5f", n4, noiseRatioBound, n1)
	}
}

// noiseRatioBound bounds K = 4's mean noise over K = 1's. Measured on
// sydney20: 0.03700 (K = 1) and 0.02031 (K = 4), ratio 0.549, near the
// 1/√4 = 0.5 of independent replays. The case is deterministic, so the
// slack is for a changed simulator, not for chance; 0.8 still fails when
// averaging does not shrink the noise (ratio ≈ 1, as for identical
// replays) and passes anything within 1.5× of the measured reduction.
const noiseRatioBound = 0.8
