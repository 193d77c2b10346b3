package learn

import "github.com/leolab/leolab/metrics"

// DetectPhases labels every interval of a throughput series with a BBR
// ProbeBW macro-phase (paper 003 §III.A.1, Algorithm 1 lines 5–11):
//
//   - d_i = b_i − b̄_i, b̄ the centered rolling mean over ±w (eq. 1), σ_d the
//     standard deviation of d over the series;
//   - a local maximum of d above κσ_d is a candidate UP, a local minimum
//     below −κσ_d a candidate DOWN;
//   - scanning forward, each UP is paired with the first candidate DOWN after
//     it; the CruiseAfterDown intervals after that DOWN stay CRUISE (BBR
//     cruises after draining) and the scan resumes after them, so candidate
//     maxima between an UP and its DOWN, or inside the cruise hold, are not
//     marked;
//   - an UP with no DOWN after it (the end of the trace) is kept and the scan
//     goes on to the next interval;
//   - everything else is CRUISE.
//
// A local extremum is strict on its left and non-strict on its right
// (d_i > d_{i−1}, d_i ≥ d_{i+1}), so a flat top is marked once, at its first
// interval; the first and last intervals are never extrema. These details are
// the repository's (utils/starlink_preprocessing.py, detect_bbr_phases); the
// paper says only "local maximum/minimum". Series shorter than 3 intervals
// are all CRUISE.
func DetectPhases(b []float64, p Params) []Phase {
	n := len(b)
	phases := make([]Phase, n) // zero value: Cruise
	if n < 3 {
		return phases
	}
	bbar := rolling(b, p.HalfWindow, metrics.Mean)
	d := make([]float64, n)
	for i := range b {
		d[i] = b[i] - bbar[i]
	}
	thr := p.Kappa * stdDev(d)
	isMax := func(i int) bool { return d[i] > thr && d[i] > d[i-1] && d[i] >= d[i+1] }
	isMin := func(i int) bool { return d[i] < -thr && d[i] < d[i-1] && d[i] <= d[i+1] }
	// nextMin[i]: the first candidate DOWN at an index > i, or -1.
	nextMin := make([]int, n)
	next := -1
	for i := n - 1; i >= 0; i-- {
		nextMin[i] = next
		if i >= 1 && i < n-1 && isMin(i) {
			next = i
		}
	}
	for i := 1; i < n-1; {
		if !isMax(i) {
			i++
			continue
		}
		phases[i] = Up
		j := nextMin[i]
		if j < 0 {
			i++
			continue
		}
		phases[j] = Down
		i = j + 1 + p.CruiseAfterDown
	}
	return phases
}
