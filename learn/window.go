package learn

import (
	"math"
	"slices"

	"github.com/leolab/leolab/metrics"
)

// Centered rolling statistics over x[i-w : i+w] (inclusive), truncated at
// the ends of the series, as the paper's "centered rolling mean" and
// "Q_0.95(x_{i-w:i+w})" (eqs. 1, 6–8) read; the repository computes its
// windows the same way (utils/starlink_preprocessing.py, _window).

// window returns the bounds [lo, hi) of the centered window around i.
func window(n, i, w int) (lo, hi int) {
	return max(0, i-w), min(n, i+w+1)
}

// rolling applies f to every centered window of x.
func rolling(x []float64, w int, f func([]float64) float64) []float64 {
	out := make([]float64, len(x))
	for i := range x {
		lo, hi := window(len(x), i, w)
		out[i] = f(x[lo:hi])
	}
	return out
}

// stdDev is the population standard deviation (σ_d of §III.A.1; numpy's
// np.std default, which the repository uses).
func stdDev(x []float64) float64 {
	m := metrics.Mean(x)
	var s float64
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(x)))
}

// quantile is the q-quantile with linear interpolation between order
// statistics (numpy's default "linear" method, so the references match the
// repository's np.percentile).
func quantile(x []float64, q float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + (pos-float64(lo))*(s[lo+1]-s[lo])
}

// minPositive is the smallest positive value (0 if none): an RTT of 0
// means "not logged", not a zero-delay path.
func minPositive(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		if v > 0 && (m == 0 || v < m) {
			m = v
		}
	}
	return m
}
