package endpoint

import (
	"math"
	"time"
)

// Histogram resolution. Emulator timing errors and one-way-delay errors are
// specified in tens of microseconds (issue 7: p50 < 50 µs, p99 < 200 µs on a
// 20 ms delay), so delays are binned at 1 µs absolute up to linearSpan and
// with 1% relative bins beyond (as netsim's RTT histogram).
const (
	histRes     = time.Microsecond
	histGrowth  = 1.01                   // ratio of consecutive log bins
	histLogBins = 2000                   // 1.01^2000 ≈ 4e8: covers any span to hours
	defaultSpan = 200 * time.Millisecond // linear range when none is given
)

// Hist records non-negative durations: exact count, sum, min and max, linear
// 1 µs bins up to its span and log bins above. Adding is allocation-free.
type Hist struct {
	span     time.Duration
	lin      []uint32
	log      []uint32
	n        int64
	sum      float64 // seconds
	min, max time.Duration
}

// NewHist returns a histogram with 1 µs bins up to span (0: 200 ms).
func NewHist(span time.Duration) *Hist {
	if span <= 0 {
		span = defaultSpan
	}
	return &Hist{
		span: span,
		lin:  make([]uint32, int(span/histRes)),
		log:  make([]uint32, histLogBins),
	}
}

// Add records d; negative values count as 0.
func (h *Hist) Add(d time.Duration) {
	d = max(d, 0)
	if h.n == 0 || d < h.min {
		h.min = d
	}
	h.max = max(h.max, d)
	h.n++
	h.sum += d.Seconds()
	if d < h.span {
		h.lin[d/histRes]++
		return
	}
	i := int(math.Log(float64(d)/float64(h.span)) / math.Log(histGrowth))
	h.log[min(i, histLogBins-1)]++
}

// Count is the number of values recorded.
func (h *Hist) Count() int64 { return h.n }

// Min and Max are the exact extremes (0 when empty).
func (h *Hist) Min() time.Duration { return h.min }

// Max is the largest value recorded.
func (h *Hist) Max() time.Duration { return h.max }

// Mean is the exact mean (0 when empty).
func (h *Hist) Mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return time.Duration(h.sum / float64(h.n) * float64(time.Second))
}

// Quantile returns the q-quantile (0 ≤ q ≤ 1) to within one bin: the middle
// of the 1 µs bin below the span, the lower bound of a 1% bin above, clamped
// to [Min, Max].
func (h *Hist) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := int64(math.Ceil(q * float64(h.n)))
	rank = min(max(rank, 1), h.n)
	var seen int64
	for i, c := range h.lin {
		if seen += int64(c); seen >= rank {
			return clamp(time.Duration(i)*histRes+histRes/2, h.min, h.max)
		}
	}
	for i, c := range h.log {
		if seen += int64(c); seen >= rank {
			return clamp(time.Duration(float64(h.span)*math.Pow(histGrowth, float64(i))), h.min, h.max)
		}
	}
	return h.max
}

func clamp(d, lo, hi time.Duration) time.Duration { return min(max(d, lo), hi) }
