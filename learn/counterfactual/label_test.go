package counterfactual

import (
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
