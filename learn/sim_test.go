package learn

import (
	"math"
	"testing"

	"github.com/leolab/leolab/internal/simtest"
)

// A simulated BBR flow on the Sydney downlink model gives a pool row per
// one-second interval, with the same invariants as a real trace.
func TestPoolFromSimRun(t *testing.T) {
	const text = "version: 1\nname: p\nduration: 60s\nseed: 1\n" +
		"path: {profile: starlink, city: sydney, direction: downlink}\nflows: [{cca: bbr}]\n"
	res := simtest.Run(t, text)
	f := res.Flows[0]
	p := NewPool()
	if err := p.AddFlow(Source{Location: res.Path.City, Stream: res.Path.Direction + "-sim", Flow: "p#0"}, f); err != nil {
		t.Fatal(err)
	}
	// 60 s at the default 1 s sampling: 60 intervals, one row each, in order.
	if len(p.Rows) != len(f.Intervals) || len(p.Rows) != 60 {
		t.Fatalf("%d rows for %d intervals, want 60", len(p.Rows), len(f.Intervals))
	}
	count := map[Phase]int{}
	var bytes float64
	for i, r := range p.Rows {
		count[r.Phase]++
		bytes += r.Throughput / 8 // 1 s intervals: bytes/s × 1 s
		if r.Index != i || r.T.Seconds() != f.Intervals[i].T {
			t.Errorf("row %d: index %d, t %v, want interval end %gs", i, r.Index, r.T, f.Intervals[i].T)
		}
		if !IsFeasible(r.Phase, r.Action) || math.IsNaN(r.Reward) || math.IsInf(r.Reward, 0) || r.Reward > 1 {
			t.Errorf("row %d %v: action %g reward %g", i, r.Phase, r.Action, r.Reward)
		}
	}
	// Throughput rebuilt from interval bytes adds up to the flow's acked
	// bytes: the intervals tile the run (the last partial segment may be
	// in flight, so allow 0.5%).
	if rel := math.Abs(bytes/float64(f.BytesAcked) - 1); rel > 0.005 {
		t.Errorf("interval bytes %.0f vs acked %d (%.2f%%)", bytes, f.BytesAcked, 100*rel)
	}
	t.Logf("sim phases: UP %d, DOWN %d, CRUISE %d", count[Up], count[Down], count[Cruise])
	if count[Up] == 0 || count[Down] > count[Up] {
		t.Errorf("UP %d, DOWN %d: the simulated BBR probes, and every DOWN pairs an UP", count[Up], count[Down])
	}
}
