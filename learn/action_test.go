package learn

import (
	"math"
	"testing"
)

func TestFeasibleSetsPartitionActions(t *testing.T) {
	// Eq. 15: the three phase sets are disjoint and cover A; UP gains probe
	// (> 1), DOWN gains drain (< 1), CRUISE is exactly 1.
	seen := map[float64]Phase{}
	for _, ph := range []Phase{Down, Cruise, Up} {
		for _, g := range Feasible(ph) {
			if prev, dup := seen[g]; dup {
				t.Errorf("gain %g in %v and %v", g, prev, ph)
			}
			seen[g] = ph
			if (ph == Up && g <= 1) || (ph == Down && g >= 1) || (ph == Cruise && g != 1) {
				t.Errorf("gain %g in %v", g, ph)
			}
		}
	}
	if len(seen) != len(Actions) {
		t.Errorf("sets cover %d gains, A has %d", len(seen), len(Actions))
	}
}

func TestContinuousGainMapping(t *testing.T) {
	// Eq. 2 at its ends: an idle path (B̄ = 0) probes hardest (G↑ = 1.5 →
	// 1.25) and drains hardest (G↓ = 0.5 → 0.90); a saturated one (B̄ = 1)
	// probes and drains least (1.0 → 1.05 and 0.98).
	cases := []struct {
		ph    Phase
		bNorm float64
		want  float64
	}{{Up, 0, 1.25}, {Up, 1, 1.05}, {Down, 0, 0.90}, {Down, 1, 0.98}, {Cruise, 0.3, 1},
		{Up, 0.5, 1.20},    // 3/2.5 = 1.2 exactly
		{Down, 0.89, 0.94}} // G↓ = 0.945: nearer 0.94 than 0.96
	for _, c := range cases {
		if got := Nearest(c.ph, ContinuousGain(c.ph, c.bNorm)); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%v B̄=%g: gain %g, want %g", c.ph, c.bNorm, got, c.want)
		}
	}
}

func TestProbeComponent(t *testing.T) {
	// Eqs. 23–24: no probe penalty at or below 1, the full penalty at
	// G_max, and superlinear (α = 1.5 > 1) growth in between, so Φ at the
	// midpoint 1.125 is well below half.
	p := DefaultParams()
	if v := ProbeComponent(1, p); v != 0 {
		t.Errorf("Φ(1) = %g", v)
	}
	if v := ProbeComponent(0.9, p); v != 0 {
		t.Errorf("Φ(0.9) = %g", v)
	}
	if v := ProbeComponent(MaxGain, p); math.Abs(v-1) > 1e-12 {
		t.Errorf("Φ(1.25) = %g", v)
	}
	if v := ProbeComponent(1.125, p); !(v > 0 && v < 0.5) {
		t.Errorf("Φ(1.125) = %g, want in (0, 0.5)", v)
	}
	prev := 0.0
	for _, g := range Feasible(Up) {
		v := ProbeComponent(g, p)
		if v <= prev {
			t.Errorf("Φ(%g) = %g not above %g", g, v, prev)
		}
		prev = v
	}
}
