package rlenv

import (
	"math"
	"sort"
	"testing"
	"time"

	"github.com/leolab/leolab/sim"
)

// The one sampler of the distribution: draws stay in [lo, hi]; uniform
// draws have the median (lo + hi)/2, log-uniform ones √(lo·hi), each
// within 4 standard errors of a median over n draws (the density at the
// median f gives σ = 1/(2f√n)); lo == hi is lo and draws nothing.
func TestScaleDraw(t *testing.T) {
	const n = 20000
	const lo, hi = 10.0, 100.0
	for _, c := range []struct {
		s      scale
		median float64
		f      float64 // density at the median
	}{
		{linear, (lo + hi) / 2, 1 / (hi - lo)},
		{logScale, math.Sqrt(lo * hi), 1 / (math.Sqrt(lo*hi) * math.Log(hi/lo))},
	} {
		r := sim.Stream(1, "rlenv/test/scale")
		v := make([]float64, n)
		for i := range v {
			v[i] = c.s.draw(r, lo, hi)
			if v[i] < lo || v[i] > hi {
				t.Fatalf("scale %v: draw %v outside [%v, %v]", c.s, v[i], lo, hi)
			}
		}
		sort.Float64s(v)
		if sigma := 1 / (2 * c.f * math.Sqrt(n)); math.Abs(v[n/2]-c.median) > 4*sigma {
			t.Errorf("scale %v: median %.3f, want %.3f ± %.3f", c.s, v[n/2], c.median, 4*sigma)
		}
	}
	r, ref := sim.Stream(2, "x"), sim.Stream(2, "x")
	if logScale.draw(r, 5, 5) != 5 || linear.duration(r, time.Second, time.Second) != time.Second || r.Uint64() != ref.Uint64() {
		t.Error("an empty range drew or moved")
	}
	if d := linear.duration(r, 10*time.Millisecond, 80*time.Millisecond); d%time.Millisecond != 0 || d < 10*time.Millisecond || d > 80*time.Millisecond {
		t.Errorf("duration %v not whole ms in [10ms, 80ms]", d)
	}
}
