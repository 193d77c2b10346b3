package metrics

import (
	"testing"
	"time"
)

// steadyTrace is n one-second intervals at 100 Mbit/s, 50 ms RTT and a
// 1 MB cwnd, with a small deterministic wobble (±4 % RTT, ±8 % rate, ±5 %
// cwnd) that must stay below every threshold.
func steadyTrace(n int) []Sample {
	s := make([]Sample, n)
	for i := range s {
		w := float64(i%3 - 1) // -1, 0, 1
		s[i] = Sample{T: time.Duration(i+1) * time.Second, Dur: time.Second,
			ThroughputBps: 100e6 * (1 + 0.08*w), SRTT: time.Duration(float64(50*time.Millisecond) * (1 + 0.04*w)),
			CWnd: int(1e6 * (1 - 0.05*w))}
		s[i].Bytes = int64(s[i].ThroughputBps / 8)
	}
	return s
}

// at returns the sample ending at second t (1-based interval ends).
func at(s []Sample, t int) *Sample { return &s[t-1] }

func TestReactionsSyntheticDisturbances(t *testing.T) {
	s := steadyTrace(120)
	// 20 s: RTT spike (×1.6), cwnd cut to 60 % one interval later.
	at(s, 20).SRTT = 80 * time.Millisecond
	at(s, 21).CWnd = 600_000
	// 50–51 s: bandwidth drop (to 40 %) over two intervals, one event;
	// the RTT rises with it in the first: a perturbation. cwnd falls in
	// the first disturbed interval (delay 0).
	at(s, 50).ThroughputBps, at(s, 50).SRTT, at(s, 50).CWnd = 40e6, 70*time.Millisecond, 700_000
	at(s, 51).ThroughputBps, at(s, 51).CWnd = 40e6, 700_000
	// 80 s: RTT spike the sender ignores.
	at(s, 80).SRTT = 90 * time.Millisecond
	// 95 s: RTT spike whose cwnd cut comes 5 s later, outside the 3 s window.
	at(s, 95).SRTT = 90 * time.Millisecond
	at(s, 100).CWnd = 500_000
	// 110 s: a cwnd cut with no disturbance is no reaction window.
	at(s, 110).CWnd = 400_000

	ev, err := Reactions(s, ReactionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Disturbance{
		{Start: 20 * time.Second, End: 20 * time.Second, RTTSpike: true, Reacted: true, Delay: time.Second},
		{Start: 50 * time.Second, End: 51 * time.Second, RTTSpike: true, BWDrop: true, Perturbation: true, Reacted: true},
		{Start: 80 * time.Second, End: 80 * time.Second, RTTSpike: true},
		{Start: 95 * time.Second, End: 95 * time.Second, RTTSpike: true},
	}
	if len(ev) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(ev), len(want), ev)
	}
	for i, w := range want {
		g := ev[i]
		if g.Start != w.Start || g.End != w.End || g.RTTSpike != w.RTTSpike || g.BWDrop != w.BWDrop ||
			g.Perturbation != w.Perturbation || g.Reacted != w.Reacted || g.Delay != w.Delay {
			t.Errorf("event %d = %+v, want %+v", i, g, w)
		}
	}
	if ev[0].CwndAfter != 600_000 || ev[0].CwndBefore < 950_000 {
		t.Errorf("event 0 cwnd %d → %d, want ~1e6 → 600000", ev[0].CwndBefore, ev[0].CwndAfter)
	}
	sum := SummariseReactions(ev)
	if sum.Events != 4 || sum.Reacted != 2 || sum.Perturbations != 1 || sum.BWDrops != 1 || sum.RTTSpikes != 4 {
		t.Errorf("summary %+v", sum)
	}
	// Gaps 30, 30, 15 s: median 30 s, mean 25 s; delays 1 s and 0.
	if sum.MedianGap != 30*time.Second || sum.MeanGap != 25*time.Second {
		t.Errorf("gaps: median %v mean %v, want 30s 25s", sum.MedianGap, sum.MeanGap)
	}
	if sum.MedianDelay != 0 || sum.MeanDelay != 500*time.Millisecond {
		t.Errorf("delays: median %v mean %v, want 0 500ms", sum.MedianDelay, sum.MeanDelay)
	}
	if sum.PerturbationGap != 0 {
		t.Errorf("one perturbation has no gap, got %v", sum.PerturbationGap)
	}
	// Cuts at 21, 50–51, 100 and 110 s: an instant j is followed by one
	// when a cut lands in [j, j+3 s] against the cwnd before j — 18–21,
	// 47–50 (at 51 the reference is 50's already cut value), 97–100 and
	// 107–110: 16 of the 119 intervals after the first.
	if got, want := ChanceReaction(s, ReactionOptions{}), 16.0/119; got != want {
		t.Errorf("chance reaction %v, want %v", got, want)
	}
}

func TestReactionsQuietTraceHasNone(t *testing.T) {
	ev, err := Reactions(steadyTrace(300), ReactionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ev) != 0 {
		t.Fatalf("wobble below the thresholds gave %d events: %+v", len(ev), ev[0])
	}
}

// A sustained RTT step (Starlink's per-slot propagation shift) is one
// event, not one per interval: the baseline median catches up.
func TestReactionsStepBecomesBaseline(t *testing.T) {
	s := steadyTrace(60)
	for i := 30; i < 60; i++ {
		s[i].SRTT = 80 * time.Millisecond
	}
	ev, err := Reactions(s, ReactionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ev) != 1 || ev[0].Start != 31*time.Second || ev[0].End-ev[0].Start > 10*time.Second {
		t.Fatalf("events %+v: want one starting at 31 s, ending within the 10 s baseline", ev)
	}
}

func TestReactionsNeedsBaselineAndRTT(t *testing.T) {
	s := steadyTrace(10)
	at(s, 2).SRTT = time.Second // within the first three samples: no baseline yet
	at(s, 6).SRTT = 0           // no RTT sample: not disturbed
	at(s, 6).ThroughputBps = 0
	ev, _ := Reactions(s, ReactionOptions{})
	if len(ev) != 0 {
		t.Fatalf("events %+v: want none", ev)
	}
}

func TestReactionsRejectsBadOptions(t *testing.T) {
	for _, o := range []ReactionOptions{{RTTSpike: 0.9}, {BWDrop: 1.5}, {CwndCut: 1}, {Window: -time.Second}} {
		if _, err := Reactions(nil, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func BenchmarkReactions(b *testing.B) {
	s := steadyTrace(300)
	for i := 15; i < 300; i += 15 {
		s[i].SRTT = 90 * time.Millisecond
		s[i+1].CWnd = 500_000
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Reactions(s, ReactionOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
