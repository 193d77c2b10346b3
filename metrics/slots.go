package metrics

import (
	"math"
	"time"
)

// Starlink's reconfiguration schedule (seed 001; DESIGN.md "Starlink access
// link"): the satellite–terminal allocation is recomputed every 15 s, at
// seconds 12, 27, 42 and 57 of each UTC minute.
const (
	SlotLength = 15 * time.Second
	SlotOffset = 12 * time.Second // first boundary after the start of a UTC minute
	// SlotSeconds is the number of 1 s bins in a slot.
	SlotSeconds = int(SlotLength / time.Second)
)

// SlotBin aggregates the intervals whose midpoint falls in one second of the
// slot: bin k covers [k, k+1) s after a boundary, so bin 14 is the second
// before the next boundary.
type SlotBin struct {
	Intervals     int
	Bytes         int64
	Retransmits   int64
	ThroughputBps float64 // mean of the intervals' throughputs
	RetransMean   float64 // mean retransmits per interval
}

// SlotProfile bins a flow's series by the second within the 15 s
// reconfiguration slot, given the wall-clock instant of the series' t = 0
// (iperf3's start.timestamp, whole seconds; leolab's epoch_utc). Intervals
// of any length are placed by their midpoint.
func SlotProfile(series []Sample, epoch time.Time) [SlotSeconds]SlotBin {
	var bins [SlotSeconds]SlotBin
	// Phase of t = 0 within the slot, from the UTC second of the minute.
	minute := epoch.Truncate(time.Minute)
	phase0 := epoch.Sub(minute) - SlotOffset
	for _, s := range series {
		mid := phase0 + s.T - s.Dur/2
		k := int(math.Floor(mod(mid, SlotLength).Seconds()))
		b := &bins[min(k, SlotSeconds-1)]
		b.Intervals++
		b.Bytes += s.Bytes
		b.Retransmits += s.Retransmits
		b.ThroughputBps += s.ThroughputBps
	}
	for i := range bins {
		if n := float64(bins[i].Intervals); n > 0 {
			bins[i].ThroughputBps /= n
			bins[i].RetransMean = float64(bins[i].Retransmits) / n
		}
	}
	return bins
}

// PeakRetransBin is the slot second with the most retransmits per interval.
func PeakRetransBin(bins [SlotSeconds]SlotBin) int {
	best := 0
	for i, b := range bins {
		if b.RetransMean > bins[best].RetransMean {
			best = i
		}
	}
	return best
}

// mod is the non-negative remainder of d by m.
func mod(d, m time.Duration) time.Duration {
	r := d % m
	if r < 0 {
		r += m
	}
	return r
}
