package probe

import (
	"sort"
	"time"
)

// batchGap separates two arrival batches: Starlink serves whole frames
// (1.33 ms), and the packets of one frame arrive together.
const batchGap = 100 * time.Microsecond

// drainBatches is how many frame batches after the first a drain-rate
// estimate uses: enough to average the frames' grants (at the uplink's
// 30 Mbit/s a frame holds 3.3 packets of 1500 bytes: ten frames resolve
// 3 %), few enough that the allocation barely moves meanwhile (13 ms: a
// 200 ms decay moves it 7 % of its span, the same for every point).
const drainBatches = 10

// DrainRate is the rate at which the link served a burst that arrived at
// once (the allocation at that moment, seed 001 §Bandwidth Allocation):
// the bytes of the frame batches after the first, over the time from the
// first batch to the last one counted. The first batch holds what was
// left of its frame's grant and the last one is cut short when the
// backlog runs out, so neither counts. Every trace's arrivals from the
// burst's first one (of burst) on count: with flow queueing a competing
// flow's backlog takes its share of each frame, and the frames' total is
// the terminal's allocation (seed 001 finding 7: it is per terminal, not
// per flow). ok is false with fewer than three batches (the burst fitted
// in two frames: too short to tell) or a trace of unknown packet size.
func DrainRate(burst *Trace, others ...*Trace) (mbps float64, ok bool) {
	from := time.Duration(1 << 62)
	for _, x := range burst.Samples {
		if !x.Lost {
			from = min(from, x.Recv())
		}
	}
	type arrival struct {
		t    time.Duration
		size int
	}
	var recv []arrival
	for _, tr := range append([]*Trace{burst}, others...) {
		if tr.Size <= 0 {
			return 0, false
		}
		for _, x := range tr.Samples {
			if !x.Lost && x.Recv() >= from {
				recv = append(recv, arrival{x.Recv(), tr.Size})
			}
		}
	}
	sort.Slice(recv, func(i, j int) bool { return recv[i].t < recv[j].t })
	var starts []time.Duration // batch arrival times
	var counts []int           // bytes per batch
	for i, r := range recv {
		if i == 0 || r.t-recv[i-1].t > batchGap {
			starts = append(starts, r.t)
			counts = append(counts, 0)
		}
		counts[len(counts)-1] += r.size
	}
	nb := min(len(starts)-1, drainBatches+1) // the last batch of the burst is partial
	if nb < 2 {
		return 0, false
	}
	bytes := 0
	for k := 1; k < nb; k++ {
		bytes += counts[k]
	}
	span := starts[nb-1] - starts[0]
	return float64(bytes*8) / span.Seconds() / 1e6, true
}
