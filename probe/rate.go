package probe

import (
	"sort"
	"time"
)

// RatePoint is the delivered rate in one bin.
type RatePoint struct {
	T    time.Duration `json:"t"` // end of the bin, since the epoch
	Mbps float64       `json:"mbps"`
}

// maxEmptyBins bounds the rate series at this many bins per delivered
// packet: a 1 packet/s probe in 5 ms bins has 200.
const maxEmptyBins = 1000

// deliveryRate bins the delivered samples' arrivals (size bytes each) into
// bins of width bin, from the first arrival to the last.
func deliveryRate(s []Sample, size int, bin time.Duration) []RatePoint {
	var recv []time.Duration
	for _, x := range s {
		if !x.Lost {
			recv = append(recv, x.Recv())
		}
	}
	if len(recv) == 0 || size <= 0 {
		return nil
	}
	sort.Slice(recv, func(i, j int) bool { return recv[i] < recv[j] })
	first := recv[0]
	span := (recv[len(recv)-1] - first) / bin
	// The series is as long as the data, not as a timestamp says: beyond
	// maxEmptyBins bins per delivered packet it is almost all zeros (no
	// ramp to read), and the span alone once sized a slice that did not fit
	// in memory.
	if span < 0 || span >= time.Duration(maxEmptyBins*len(recv)+maxEmptyBins) {
		return nil
	}
	n := int(span) + 1
	count := make([]int, n)
	for _, t := range recv {
		count[int((t-first)/bin)]++
	}
	out := make([]RatePoint, n)
	for k, c := range count {
		out[k] = RatePoint{T: first + time.Duration(k+1)*bin, Mbps: float64(c*size*8) / bin.Seconds() / 1e6}
	}
	return out
}

// Ramp describes how the delivered rate of an overloading probe grew: the
// demand-driven allocation of seed 001 (findings 4, 5: downlink from ~100
// Mbit/s to up to 3.4× over ~400 ms; uplink ~30 Mbit/s, 2×).
type Ramp struct {
	// Initial is the rate over the first rampHead of deliveries; Peak the
	// rampPeakQ quantile of the binned rate before the first outage.
	Initial, Peak float64 // Mbit/s
	// Time is from the first arrival to the end of the first bin at
	// rampReach of Peak.
	Time time.Duration
}

// Ramp parameters.
const (
	rampHead  = 20 * time.Millisecond // the emulator tests' "first 20 ms"
	rampPeakQ = 0.9
	rampReach = 0.9
)

// findRamp reads the ramp from rates (bins of bin) up to until (the first
// outage, or the end). ok is false when the trace is too short (under
// four rampHead) or the probe never overloaded the link (the peak is
// within 20 % of the initial rate).
func findRamp(rates []RatePoint, bin, until time.Duration) (r Ramp, ok bool) {
	var use []RatePoint
	for _, p := range rates {
		if p.T <= until {
			use = append(use, p)
		}
	}
	head := int(rampHead / bin)
	if head < 1 || len(use) < 4*head {
		return r, false
	}
	for _, p := range use[:head] {
		r.Initial += p.Mbps / float64(head)
	}
	// Peak and reach are judged on rampHead-wide moving averages: a bin
	// of a few packets is too coarse on its own.
	avg := make([]float64, len(use)-head+1)
	for k := range avg {
		for _, p := range use[k : k+head] {
			avg[k] += p.Mbps / float64(head)
		}
	}
	sorted := append([]float64(nil), avg...)
	sort.Float64s(sorted)
	r.Peak = sorted[int(rampPeakQ*float64(len(sorted)-1))]
	if r.Peak < 1.2*r.Initial {
		return r, false
	}
	start := use[0].T - bin
	for k, a := range avg {
		if a >= rampReach*r.Peak {
			r.Time = use[k+head-1].T - start
			break
		}
	}
	return r, true
}
