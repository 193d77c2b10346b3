package probe

import (
	"time"
)

// Burst is what a line-rate burst into an idle queue shows (seed 001
// §Queue: a burst longer than the buffer loses its oldest packets on
// Starlink — head drop — where a tail-drop queue loses its newest, and the
// number kept gives the buffer's size in packets, findings 1–3).
type Burst struct {
	Packets, Lost int
	// Served counts the packets that left the link while the burst was
	// still being sent (arrival less the delay floor at or before the last
	// send): the link drains as it fills.
	Served int
	// Kept is the queue's content when the burst ended: delivered less
	// Served. With the buffer full it is the buffer's size in packets,
	// less the AQM's drops among the kept.
	Kept int
	// NewestDelivered is the share of the Kept newest packets of the burst
	// that arrived: about 1 for head drop, 0 for tail drop.
	NewestDelivered float64
	// Policy is "head-drop", "tail-drop" or "mixed" (NewestDelivered
	// between the two thresholds).
	Policy string
	// QueueDelay is the largest delay above the floor: the time the buffer
	// held the burst's last packets.
	QueueDelay time.Duration
}

// Burst policy thresholds: a head-drop queue delivers its newest packets
// but for the AQM's random drops (seed 001: the downlink's AQM drops a few
// per cent at a full buffer); a tail-drop one none of them.
const headDropMin, tailDropMax = 0.8, 0.2

// burstMinOverload is how much faster than it was delivered a probe must
// have been sent to count as a burst.
const burstMinOverload = 2

// findBurst reads a burst probe: sent at least burstMinOverload times
// faster than delivered, with losses. ok is false otherwise.
func findBurst(s []Sample, minOWD time.Duration) (b Burst, ok bool) {
	n := len(s)
	var firstRecv, lastRecv time.Duration = 1 << 62, 0
	for _, x := range s {
		if x.Lost {
			b.Lost++
			continue
		}
		firstRecv, lastRecv = min(firstRecv, x.Recv()), max(lastRecv, x.Recv())
		b.QueueDelay = max(b.QueueDelay, x.OWD-minOWD)
	}
	delivered := n - b.Lost
	sendSpan := s[n-1].Sent - s[0].Sent
	if b.Lost == 0 || delivered < 2 || sendSpan <= 0 || lastRecv-firstRecv < burstMinOverload*sendSpan {
		return b, false
	}
	b.Packets = n
	end := s[n-1].Sent
	for _, x := range s {
		if !x.Lost && x.Recv()-minOWD <= end {
			b.Served++
		}
	}
	b.Kept = delivered - b.Served
	if b.Kept <= 0 {
		return b, false
	}
	newest := s[n-b.Kept:]
	got := 0
	for _, x := range newest {
		if !x.Lost {
			got++
		}
	}
	b.NewestDelivered = float64(got) / float64(len(newest))
	switch {
	case b.NewestDelivered >= headDropMin:
		b.Policy = "head-drop"
	case b.NewestDelivered <= tailDropMax:
		b.Policy = "tail-drop"
	default:
		b.Policy = "mixed"
	}
	return b, true
}
