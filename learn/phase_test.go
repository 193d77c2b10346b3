package learn

import (
	"slices"
	"testing"
)

// spikes is a flat 100-unit series with ±50 single-interval spikes at the
// given indices. A spike of 50 moves its own deviation d by 50·20/21 ≈ 48
// and its neighbours' by only 50/21 ≈ 2.4, while σ_d over 60 intervals
// with 7 spikes is ≈ 16 (κσ_d ≈ 11): so exactly the spikes are candidate
// extrema and the pairing rules alone decide the phases.
func spikes(n int, up, down []int) []float64 {
	b := make([]float64, n)
	for i := range b {
		b[i] = 100
	}
	for _, i := range up {
		b[i] += 50
	}
	for _, i := range down {
		b[i] -= 50
	}
	return b
}

func indicesOf(ph []Phase, want Phase) []int {
	var out []int
	for i, p := range ph {
		if p == want {
			out = append(out, i)
		}
	}
	return out
}

func TestDetectPhasesPairing(t *testing.T) {
	// 10: UP; 12: a maximum before the DOWN, not marked; 15: DOWN;
	// 18: a maximum inside the 6-interval cruise hold (16–21), not marked;
	// 30: UP, 34: DOWN; 50: UP with no DOWN after it (kept).
	b := spikes(60, []int{10, 12, 18, 30, 50}, []int{15, 34})
	ph := DetectPhases(b, DefaultParams())
	if got, want := indicesOf(ph, Up), []int{10, 30, 50}; !slices.Equal(got, want) {
		t.Errorf("UP at %v, want %v", got, want)
	}
	if got, want := indicesOf(ph, Down), []int{15, 34}; !slices.Equal(got, want) {
		t.Errorf("DOWN at %v, want %v", got, want)
	}
}

func TestDetectPhasesNoStructure(t *testing.T) {
	// A flat series has σ_d = 0 and no strict extremum; a series too short
	// for a neighbour on each side has no extremum at all.
	for _, b := range [][]float64{spikes(40, nil, nil), {1, 5}, {3}, nil} {
		for i, p := range DetectPhases(b, DefaultParams()) {
			if p != Cruise {
				t.Errorf("len %d: interval %d is %v, want CRUISE", len(b), i, p)
			}
		}
	}
}

func TestDetectPhasesEndpointsNeverExtrema(t *testing.T) {
	// The largest and smallest values sit at the ends, where an extremum
	// has no neighbour on one side: neither is marked.
	b := spikes(30, []int{0}, []int{29})
	ph := DetectPhases(b, DefaultParams())
	if ph[0] != Cruise || ph[29] != Cruise {
		t.Errorf("ends marked %v, %v", ph[0], ph[29])
	}
}
