package starlink

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// Acceptance 3: slot-to-slot changes of the stable rate have the
// configured median (70 Mbps DL, 26 Mbps UL).
func TestDriftMedian(t *testing.T) {
	p := mustProfile(t, "", nil)
	for _, a := range []struct {
		name   string
		max    float64
		median float64
		d      drifter
	}{
		{"downlink", p.Downlink.MaxRate(), 70e6, newDrifter(&p.Downlink, p.Reconfig.RTTSteps, 1)},
		{"uplink", p.Uplink.MaxRate(), 26e6, newDrifter(&p.Uplink, p.Reconfig.RTTSteps, 1)},
	} {
		rng := rand.New(rand.NewPCG(3, 4))
		const n = 20001
		prev := a.d.next(rng).scale * a.max
		diffs := make([]float64, 0, n)
		for range n {
			cur := a.d.next(rng).scale * a.max
			diffs = append(diffs, math.Abs(cur-prev))
			if cur <= 0 {
				t.Fatalf("%s: slot rate %.1f Mbps", a.name, cur/1e6)
			}
			prev = cur
		}
		slices.Sort(diffs)
		// Sample median of n: relative sd ~ 1/(2 f(m) sqrt n) ~ 1 %; 4 sd.
		if got := diffs[n/2]; math.Abs(got-a.median) > 0.04*a.median {
			t.Errorf("%s: median slot change %.1f Mbps, want %.0f", a.name, got/1e6, a.median/1e6)
		}
	}
}

// RTT steps: changes come from ±magnitudes, the level stays within
// [0, max_excess], and two links with the same slot seed agree.
func TestRTTSteps(t *testing.T) {
	p := mustProfile(t, "", map[string]any{"reconfig.rtt_steps.enabled": true, "downlink.drift.owd_max": "0s", "uplink.drift.owd_max": "0s"})
	dl := newDrifter(&p.Downlink, p.Reconfig.RTTSteps, 42)
	ul := newDrifter(&p.Uplink, p.Reconfig.RTTSteps, 42)
	r1, r2 := rand.New(rand.NewPCG(1, 1)), rand.New(rand.NewPCG(9, 9))
	var prev time.Duration
	for range 1000 {
		a, b := dl.next(r1), ul.next(r2)
		if a.owd != b.owd {
			t.Fatalf("DL and UL steps differ: %v vs %v", a.owd, b.owd)
		}
		step := 2 * (a.owd - prev)
		prev = a.owd
		if step < 0 {
			step = -step
		}
		if !slices.Contains(p.Reconfig.RTTSteps.Magnitudes, step) {
			t.Fatalf("RTT step %v not in %v", step, p.Reconfig.RTTSteps.Magnitudes)
		}
		if lvl := 2 * a.owd; lvl < 0 || lvl > p.Reconfig.RTTSteps.MaxExcess {
			t.Fatalf("RTT level %v out of [0, %v]", lvl, p.Reconfig.RTTSteps.MaxExcess)
		}
	}
}
