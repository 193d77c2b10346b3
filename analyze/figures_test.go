package analyze

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/metrics"
)

// A log started at 06:56:31 UTC meets reconfigurations at :42, :57, :12, …
// → 11, 26, 41 s after its start.
func TestBoundaries(t *testing.T) {
	ref := time.Date(2026, 3, 30, 6, 56, 31, 0, time.UTC)
	gs := groupSeries{ref: ref, starlink: true, maxT: 45 * time.Second}
	if got := gs.boundaries(); !slices.Equal(got, []float64{11, 26, 41}) {
		t.Errorf("boundaries %v, want [11 26 41]", got)
	}
	gs.starlink = false
	if got := gs.boundaries(); got != nil {
		t.Errorf("non-Starlink path: boundaries %v", got)
	}
}

// With ρ_max = 0.995 and c_s² = 1 the P-K queue of a window busy
// throughout (λ = μ) saturates at 2/(2·0.005) = 200 packets, and the
// estimator reaches exactly that.
func TestSaturationQueue(t *testing.T) {
	if q := saturationQueue(); math.Abs(q-200) > 1e-9 {
		t.Errorf("saturation queue %v, want 200", q)
	}
	var s []metrics.QueueSample
	for i := range 20 {
		s = append(s, metrics.QueueSample{T: time.Duration(i+1) * time.Second, Dur: time.Second, Bytes: 1e7,
			RTT: 50 * time.Millisecond})
	}
	est, err := metrics.EstimateQueue(s, metrics.QueueOptions{BaseRTT: 20 * time.Millisecond})
	if err != nil || len(est) == 0 || math.Abs(est[0].Q-saturationQueue()) > 1e-6 {
		t.Fatalf("a busy window's estimate %+v (%v), want Q = %v", est, err, saturationQueue())
	}
}
