package metrics

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Seed 002's metrics (Mazilu, Valentine & Parisis, "Evaluating Learning
// Congestion control Schemes for LEO Constellations", arXiv 2510.25498):
// the goodput ratio of two competing flows (its Figs. 5, 6, 9a), the
// normalised aggregate goodput against Jain's index (Figs. 7, 8, 9b), the
// normalised throughput against delay inflation (Fig. 9c) and the goodput
// CDF (Fig. 3). Goodput is what the receiver got: leolab's throughput counts
// acknowledged bytes once, so it is goodput already. The seed's text gives
// the plots, not the formulas; the definitions below are the standard ones
// and say which.

// ConfidenceLevel is the level of the error bars: a two-sided 95 %
// confidence interval of the mean (the referee's request in seed 002's
// review: "error bars, number of runs").
const ConfidenceLevel = 0.95

// GoodputRatio is min/max of two flows' goodputs: 1 when they share the
// bottleneck equally, 0 when one starves — the 0–1 axis of seed 002 Figs.
// 5, 6 and 9a. Which flow won is LongOverShort's. Two zero goodputs are an
// equal (empty) split: 1.
func GoodputRatio(a, b float64) float64 {
	lo, hi := min(a, b), max(a, b)
	if hi <= 0 {
		return 1
	}
	return lo / hi
}

// LongOverShort is the goodput of the flow with the longer RTT over that of
// the shorter one: below 1 the short-RTT flow wins (loss-based schemes'
// classic RTT unfairness), above 1 the long-RTT one (BBR's known bias). +Inf
// when the short flow got nothing and the long one something.
func LongOverShort(long, short float64) float64 {
	if short <= 0 {
		if long <= 0 {
			return 1
		}
		return math.Inf(1)
	}
	return long / short
}

// NormalisedGoodput is the flows' aggregate goodput over the bottleneck's
// capacity (same unit): 1 = a full link (seed 002 Figs. 7–9's x axis).
// NaN without a capacity.
func NormalisedGoodput(goodputs []float64, capacity float64) float64 {
	if !(capacity > 0) {
		return math.NaN()
	}
	var sum float64
	for _, g := range goodputs {
		sum += g
	}
	return sum / capacity
}

// DelayInflation is a flow's mean RTT over the path's base (propagation)
// RTT: 1 = no queueing (seed 002 Fig. 9c's y axis). It differs from
// FlowStats.RTTInflation, which divides by the smallest RTT the flow saw:
// on a path whose base RTT changes, or a flow that never saw an empty
// queue, the base RTT is the honest denominator. NaN without one.
func DelayInflation(meanRTTMs, baseRTTMs float64) float64 {
	if !(baseRTTMs > 0) {
		return math.NaN()
	}
	return meanRTTMs / baseRTTMs
}

// CDFPoint is one step of an empirical CDF: P is the share of samples ≤ X.
type CDFPoint struct{ X, P float64 }

// CDF is the empirical distribution of xs (NaNs dropped), one point per
// distinct value, ascending (seed 002 Fig. 3: per-second goodput of each
// scheme under bandwidth and RTT steps).
func CDF(xs []float64) []CDFPoint {
	v := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	slices.Sort(v)
	var out []CDFPoint
	n := float64(len(v))
	for i, x := range v {
		if i+1 < len(v) && v[i+1] == x {
			continue
		}
		out = append(out, CDFPoint{X: x, P: float64(i+1) / n})
	}
	return out
}

// Estimate is a mean over runs with its error bar.
type Estimate struct {
	N    int
	Mean float64
	SD   float64 // sample standard deviation (n−1)
	// CI is the half-width of the two-sided ConfidenceLevel confidence
	// interval of the mean, t-based: t_{0.975, n−1} · SD/√n (Student's t:
	// the runs are few and their spread unknown). NaN for fewer than two
	// runs: one run has no error bar.
	CI float64
}

// Lo and Hi are the interval's ends.
func (e Estimate) Lo() float64 { return e.Mean - e.CI }
func (e Estimate) Hi() float64 { return e.Mean + e.CI }

// MeanCI estimates the mean of xs (NaNs dropped) with its t-based
// confidence interval.
func MeanCI(xs []float64) Estimate {
	var e Estimate
	var sum float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			sum += x
			e.N++
		}
	}
	e.Mean, e.SD, e.CI = math.NaN(), math.NaN(), math.NaN()
	if e.N == 0 {
		return e
	}
	e.Mean = sum / float64(e.N)
	if e.N < 2 {
		return e
	}
	var ss float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			ss += (x - e.Mean) * (x - e.Mean)
		}
	}
	e.SD = math.Sqrt(ss / float64(e.N-1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(e.N - 1)}.Quantile(1 - (1-ConfidenceLevel)/2)
	e.CI = t * e.SD / math.Sqrt(float64(e.N))
	return e
}
