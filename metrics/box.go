package metrics

import (
	"math"
	"slices"
)

// Box-plot conventions. Seed 003 (Figs. 2–5) draws box plots of per-interval
// iperf3 samples without stating its quartile or whisker rule; we use the
// defaults of matplotlib's boxplot (what the seed's Python tooling most
// likely drew with), which are also Tukey's (Exploratory Data Analysis,
// 1977): quartiles by linear interpolation between order statistics
// (Hyndman & Fan 1996, definition 7, numpy's default) and whiskers at the
// most extreme sample within WhiskerIQR interquartile ranges of the box.
const WhiskerIQR = 1.5

// BoxStats is one box of a box plot.
type BoxStats struct {
	N                int     // samples
	Q1, Median, Q3   float64 // quartiles (Hyndman & Fan definition 7)
	WhiskLo, WhiskHi float64 // most extreme samples within WhiskerIQR·IQR of Q1 and Q3
	Min, Max         float64
	Mean             float64
	// Outliers are the samples beyond the whiskers, ascending.
	Outliers []float64
}

// Box computes the box of xs, ignoring NaNs; N = 0 for no finite values.
func Box(xs []float64) BoxStats {
	s := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	if len(s) == 0 {
		return BoxStats{}
	}
	slices.Sort(s)
	b := BoxStats{N: len(s), Q1: quantile7(s, 0.25), Median: quantile7(s, 0.5), Q3: quantile7(s, 0.75),
		Min: s[0], Max: s[len(s)-1], Mean: Mean(s)}
	lo, hi := b.Q1-WhiskerIQR*(b.Q3-b.Q1), b.Q3+WhiskerIQR*(b.Q3-b.Q1)
	b.WhiskLo, b.WhiskHi = b.Q1, b.Q3
	for _, x := range s {
		if x >= lo {
			b.WhiskLo = math.Min(x, b.Q1)
			break
		}
	}
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] <= hi {
			b.WhiskHi = math.Max(s[i], b.Q3)
			break
		}
	}
	for _, x := range s {
		if x < lo || x > hi {
			b.Outliers = append(b.Outliers, x)
		}
	}
	return b
}

// quantile7 is the linearly interpolated quantile of sorted s (Hyndman &
// Fan definition 7): position h = (n−1)q between order statistics.
func quantile7(s []float64, q float64) float64 {
	h := float64(len(s)-1) * q
	i := int(math.Floor(h))
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-float64(i))*(s[i+1]-s[i])
}
