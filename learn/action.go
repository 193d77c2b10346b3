package learn

import (
	"math"
	"slices"
)

// Phase is a BBR ProbeBW macro-phase as detected from throughput.
type Phase uint8

const (
	Cruise Phase = iota // ProbeBW_CRUISE (and REFILL): gain 1
	Up                  // ProbeBW_UP: probing for more bandwidth
	Down                // ProbeBW_DOWN: draining the queue
)

func (p Phase) String() string {
	switch p {
	case Up:
		return "UP"
	case Down:
		return "DOWN"
	}
	return "CRUISE"
}

// Actions is the finite pacing-gain action space A (paper 003 eq. 14),
// ascending. Index order is the action index of the repository's
// utils/bbr.py PACING_GAINS.
var Actions = [...]float64{0.90, 0.92, 0.94, 0.96, 0.98, 1.00, 1.05, 1.10, 1.15, 1.20, 1.25}

// MaxGain is G_max of eq. 24, the largest gain of A.
const MaxGain = 1.25

// feasible holds the index range [lo, hi) of A allowed in each phase
// (eq. 15): S_DOWN = {0.90..0.98}, S_CRUISE = {1.00}, S_UP = {1.05..1.25}.
var feasible = map[Phase][2]int{Down: {0, 5}, Cruise: {5, 6}, Up: {6, 11}}

// Feasible returns the gains allowed in phase p (eq. 15), ascending.
func Feasible(p Phase) []float64 {
	r := feasible[p]
	return slices.Clone(Actions[r[0]:r[1]])
}

// IsFeasible reports whether gain g is one of phase p's gains.
func IsFeasible(p Phase, g float64) bool {
	return slices.Contains(Feasible(p), g)
}

// ContinuousGain is the continuous gain estimate of eq. 2 from the
// normalised rate utilization bNorm = b_i / max_j b_j: G↑ = 3/(B̄+2) in UP
// (1.5 when idle, 1 when saturated), G↓ = (B̄+1)/2 in DOWN (0.5 … 1), and 1 in
// CRUISE. The PDF's eq. 2 is garbled; the formulas are those of the
// repository's utils/starlink_preprocessing.py (_equation_2_3_action).
func ContinuousGain(p Phase, bNorm float64) float64 {
	switch p {
	case Up:
		return 3 / (bNorm + 2)
	case Down:
		return (bNorm + 1) / 2
	}
	return 1
}

// Nearest maps a continuous gain to the nearest gain of phase p's feasible
// set (eq. 3); a tie goes to the lower gain, as the repository breaks ties by
// action index.
func Nearest(p Phase, g float64) float64 {
	best, bestD := math.NaN(), math.Inf(1)
	for _, a := range Feasible(p) {
		if d := math.Abs(a - g); d < bestD {
			best, bestD = a, d
		}
	}
	return best
}
