package probe

import "time"

// AQMBin is the drop rate of the packets that arrived to a queue of
// [Lo, Hi) packets.
type AQMBin struct {
	Lo, Hi        int
	Arrived, Lost int
}

// Prob is the bin's drop probability.
func (b AQMBin) Prob() float64 {
	if b.Arrived == 0 {
		return 0
	}
	return float64(b.Lost) / float64(b.Arrived)
}

// AQMCurve is the drop probability against the queue a packet found on
// arrival, read from one probe flow that built a queue (seed 001 §Queue
// Management, findings 8–10: on the uplink the drop rate rises about
// linearly with the queue over 0–250 packets; on the downlink drops start
// well below 500 packets).
type AQMCurve struct {
	Bins []AQMBin
	// Slope is the least-squares drop probability per queued packet of a
	// line through the origin, over the bins below SlopeUntil (where the
	// curve has not yet saturated): seed 001's "linear in queue length".
	Slope      float64
	SlopeUntil int
	// FirstDrop is the least queue at which a packet was lost (random
	// loss aside, the AQM's onset); MaxQueue the largest queue seen.
	FirstDrop, MaxQueue int
}

// aqmSaturated is the bin drop rate beyond which the slope fit stops: a
// probability capped at 1 (and head drops at a full buffer) bend the line.
const aqmSaturated = 0.8

// aqmMinArrivals is the fewest arrivals that make a bin count in the fit.
const aqmMinArrivals = 50

// InferAQMCurve reads the drop curve of a single flow's queue from its
// trace. The queue a packet found is counted from the packets: those sent
// before it that were delivered and left the link after it arrived
// (arrival less the delay floor floor, the path's delay without queueing).
// In one flow's FIFO queue the departures are in send order, so the count
// is the queue (head-dropped packets, which waited but never left, are
// missed: near a full buffer the count is low). Packets sent in
// [from, to) are binned by bin packets; losses inside an outage should be
// excluded by the caller's window.
func InferAQMCurve(tr *Trace, floor time.Duration, from, to time.Duration, bin int) AQMCurve {
	s := tr.Samples
	n := len(s)
	// delivered[i]: delivered packets among s[:i]; left[i]: when s[i]
	// left the link (delivered ones only), made monotone.
	delivered := make([]int, n+1)
	left := make([]time.Duration, n)
	var last time.Duration
	for i, x := range s {
		delivered[i+1] = delivered[i]
		if !x.Lost {
			delivered[i+1]++
			last = max(last, x.Recv()-floor)
		}
		left[i] = last
	}
	c := AQMCurve{FirstDrop: -1}
	k := 0 // first index whose departure is after s[i].Sent
	for i, x := range s {
		for k < i && (s[k].Lost || left[k] <= x.Sent) {
			k++
		}
		if x.Sent < from || x.Sent >= to {
			continue
		}
		q := delivered[i] - delivered[k]
		b := q / bin
		for len(c.Bins) <= b {
			lo := len(c.Bins) * bin
			c.Bins = append(c.Bins, AQMBin{Lo: lo, Hi: lo + bin})
		}
		c.Bins[b].Arrived++
		if x.Lost {
			c.Bins[b].Lost++
			if c.FirstDrop < 0 || q < c.FirstDrop {
				c.FirstDrop = q
			}
		}
		c.MaxQueue = max(c.MaxQueue, q)
	}
	var sxy, sxx float64
	for _, b := range c.Bins {
		if b.Arrived < aqmMinArrivals {
			continue
		}
		if b.Prob() > aqmSaturated {
			break
		}
		x := float64(b.Lo+b.Hi) / 2
		w := float64(b.Arrived)
		sxy += w * x * b.Prob()
		sxx += w * x * x
		c.SlopeUntil = b.Hi
	}
	if sxx > 0 {
		c.Slope = sxy / sxx
	}
	return c
}
