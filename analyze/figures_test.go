package analyze

import (
	"math"
	"slices"
	"testing"
	"time"
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

// With ρ = 0.995 and c_s² = 1 the P-K queue saturates at
// 0.995²·2/(2·0.005) = 198.005 packets.
func TestSaturationQueue(t *testing.T) {
	if q := saturationQueue(); math.Abs(q-198.005) > 1e-9 {
		t.Errorf("saturation queue %v, want 198.005", q)
	}
}
