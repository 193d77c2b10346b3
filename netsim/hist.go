package netsim

import (
	"math"
	"time"
)

// histGrowth is the ratio between consecutive bucket bounds: percentiles are
// exact to within 1%, which is finer than any RTT variation we report.
const histGrowth = 1.01

// histBuckets covers 1 µs to ~1e4 s at 1% resolution.
var histLogGrowth = math.Log(histGrowth)

const histBuckets = 2400

// hist records durations: exact count, sum, min and max, and log-spaced
// buckets for percentiles. Buckets are allocated on first use, then adding
// is allocation-free.
type hist struct {
	n        int64
	sum      float64 // seconds
	min, max time.Duration
	buckets  []uint32
}

func (h *hist) add(d time.Duration) {
	if h.buckets == nil {
		h.buckets = make([]uint32, histBuckets)
		h.min = d
	}
	h.n++
	h.sum += d.Seconds()
	h.min = min(h.min, d)
	h.max = max(h.max, d)
	h.buckets[bucketOf(d)]++
}

func bucketOf(d time.Duration) int {
	us := float64(d) / float64(time.Microsecond)
	if us <= 1 {
		return 0
	}
	b := int(math.Log(us)/histLogGrowth) + 1
	return min(b, histBuckets-1)
}

// mean returns the mean duration, 0 when empty.
func (h *hist) mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return time.Duration(h.sum / float64(h.n) * float64(time.Second))
}

// quantile returns the q-quantile (0..1), clamped to [min, max].
func (h *hist) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	var seen uint64
	for b, c := range h.buckets {
		seen += uint64(c)
		if seen >= rank {
			// Upper bound of bucket b: growth^b µs.
			up := time.Duration(math.Pow(histGrowth, float64(b)) * float64(time.Microsecond))
			return min(max(up, h.min), h.max)
		}
	}
	return h.max
}
