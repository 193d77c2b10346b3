package repro001

import (
	"math"
	"sort"
	"time"
)

var nan = math.NaN()

// medianDur is the median of d (reordered).
func medianDur(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2]
}

// medianF is the median of v (reordered).
func medianF(v []float64) float64 {
	if len(v) == 0 {
		return nan
	}
	sort.Float64s(v)
	if n := len(v); n%2 == 0 {
		return (v[n/2-1] + v[n/2]) / 2
	}
	return v[len(v)/2]
}
