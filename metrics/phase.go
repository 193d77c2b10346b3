package metrics

import (
	"math"
	"time"

	"github.com/leolab/leolab/result"
)

// PhasePoint is one instant of the two-flow phase plane (seed 000 Fig. 15):
// the throughput pair and the instantaneous fairness indices.
type PhasePoint struct {
	T          time.Duration
	X1, X2     float64 // bits/s of flow 1 and flow 2
	Jain       float64
	PF         float64
	MinMax     float64
	Ratio      float64 // X1 / X2; +Inf when X2 = 0
	Throughput float64 // X1 + X2, the α = 0 utility
}

// PhaseSummary averages the phase plane over its points, as seed 000 quotes
// it: mean instantaneous Jain, PF and max–min; the throughput ratio of the
// mean rates T̄1/T̄2 (a mean of instantaneous ratios is dominated by
// near-zero X2); and the α = 0 utility T̄1 + T̄2.
type PhaseSummary struct {
	Points               int
	Jain, PF, MinMax     float64
	Ratio                float64
	Alpha0, Mean1, Mean2 float64 // bits/s
}

// PhasePlane pairs the intervals of two flows that end at the same time
// (within half the shorter interval) and computes the instantaneous indices
// of each pair; points where both rates are zero are left out.
func PhasePlane(a, b result.Flow) ([]PhasePoint, PhaseSummary) {
	sa, sb := Series(a), Series(b)
	var pts []PhasePoint
	j := 0
	for _, x := range sa {
		for j < len(sb) && sb[j].T < x.T-min(x.Dur, sb[j].Dur)/2 {
			j++
		}
		if j == len(sb) {
			break
		}
		y := sb[j]
		if absDur(y.T-x.T) > min(x.Dur, y.Dur)/2 || (x.ThroughputBps == 0 && y.ThroughputBps == 0) {
			continue
		}
		al := Allocation([]float64{x.ThroughputBps, y.ThroughputBps})
		pts = append(pts, PhasePoint{T: x.T, X1: x.ThroughputBps, X2: y.ThroughputBps,
			Jain: al.Jain, PF: al.PF, MinMax: al.MinMax, Ratio: x.ThroughputBps / y.ThroughputBps,
			Throughput: al.Alpha0})
	}
	return pts, summarise(pts)
}

func summarise(pts []PhasePoint) PhaseSummary {
	s := PhaseSummary{Points: len(pts)}
	if len(pts) == 0 {
		return s
	}
	for _, p := range pts {
		s.Jain += p.Jain
		s.PF += p.PF
		s.MinMax += p.MinMax
		s.Mean1 += p.X1
		s.Mean2 += p.X2
	}
	n := float64(len(pts))
	s.Jain, s.PF, s.MinMax, s.Mean1, s.Mean2 = s.Jain/n, s.PF/n, s.MinMax/n, s.Mean1/n, s.Mean2/n
	s.Alpha0 = s.Mean1 + s.Mean2
	s.Ratio = math.Inf(1)
	if s.Mean2 > 0 {
		s.Ratio = s.Mean1 / s.Mean2
	}
	return s
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
