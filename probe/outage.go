package probe

import "time"

// Outage is one interruption seen in a trace: arrivals stopped for longer
// than the sender's spacing and a threshold, and the packets sent meanwhile
// came out late (held) or not at all, as at a Starlink reconfiguration
// (seed 001 finding 14: ~45 ms downlink, ~68 ms uplink). Times are on the
// sender's clock: an arrival time less the path's delay floor.
type Outage struct {
	// Start is when the last packet before the outage left the link;
	// End when the first one after it did.
	Start, End time.Duration
	// Peak is the largest excess delay (above the floor) of a held packet.
	Peak time.Duration
	// Held and Lost count the packets sent in [Start, End] that arrived
	// after it and that never did.
	Held, Lost int
}

// Length is End - Start.
func (o Outage) Length() time.Duration { return o.End - o.Start }

// findOutages returns the outages of s in time order: pauses of the
// arrivals longer than thr + spacing, merged when less than merge apart.
// before and after are the delay floors (delayFloor): the pause starts
// when the last packet before it left the link (its arrival less the floor
// before it) and ends when the first one after it did. Arrivals, not delays,
// mark an outage: a probe that fills a queue raises its delay for seconds
// but keeps arriving. And the link must have caused the pause: packets
// sent during it came out more than thr late (held) or lost over more
// than thr of sending. A sender that paused (a loaded host) makes the
// same gap in arrivals, but what it sends next arrives on time.
func findOutages(s []Sample, before, after []time.Duration, thr, spacing, merge time.Duration) []Outage {
	var out []Outage
	prev := -1                 // the last delivered sample
	var lastRecv time.Duration // latest arrival so far
	for i := range s {
		if s[i].Lost {
			continue
		}
		r := s[i].Recv()
		if prev >= 0 && r-lastRecv > thr+spacing {
			o := Outage{Start: s[prev].Recv() - before[prev], End: r - after[i], Lost: i - prev - 1}
			for j := i; j < len(s) && s[j].Sent <= o.End; j++ {
				if !s[j].Lost {
					o.Held++
					o.Peak = max(o.Peak, s[j].OWD-after[j])
				}
			}
			lostSpan := time.Duration(0)
			if o.Lost > 0 {
				lostSpan = s[i-1].Sent - s[prev+1].Sent + spacing
			}
			if o.Peak <= thr && lostSpan <= thr {
				prev, lastRecv = i, max(lastRecv, r)
				continue // the sender paused, not the link
			}
			if n := len(out); n > 0 && o.Start-out[n-1].End < merge {
				l := &out[n-1]
				l.End, l.Peak, l.Held, l.Lost = o.End, max(l.Peak, o.Peak), l.Held+o.Held, l.Lost+o.Lost
			} else {
				out = append(out, o)
			}
		}
		prev, lastRecv = i, max(lastRecv, r)
	}
	return out
}
