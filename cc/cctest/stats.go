package cctest

import (
	"time"

	"github.com/leolab/leolab/cc"
)

// stats accumulates what the path measured since ResetStats.
type stats struct {
	from                  time.Duration
	ackedBytes, lostBytes int64
	qdelaySum             time.Duration // Σ (RTT − base RTT) over ACKs
	acks                  int64
}

func (s *stats) add(acked, lost int, qdelay time.Duration) {
	s.ackedBytes += int64(acked)
	s.lostBytes += int64(lost)
	s.qdelaySum += qdelay
	s.acks++
}

// Now is the path's clock: the time of the last event.
func (p *Path) Now() time.Duration { return p.now }

// Delivered is the total of acknowledged bytes (C.delivered).
func (p *Path) Delivered() int64 { return p.delivered }

// Sent and Drops count the segments sent and dropped at the bottleneck's
// entry (random loss, policer, buffer) since the start.
func (p *Path) Sent() int  { return p.sent }
func (p *Path) Drops() int { return p.drops }

// Sample is a copy of the last rate sample handed to the controller.
func (p *Path) Sample() cc.RateSample { return p.rs }

// BDPBytes is the bandwidth-delay product at t = 0, in bytes.
func (p *Path) BDPBytes() float64 { return p.Rate(0) * p.RTT(0).Seconds() }

// BDPPackets is BDPBytes in segments.
func (p *Path) BDPPackets() float64 { return p.BDPBytes() / float64(p.MSS) }

// QueuePackets is the bottleneck's backlog now, in segments.
func (p *Path) QueuePackets() float64 {
	if p.linkFree <= p.now {
		return 0
	}
	return p.Rate(p.now) * (p.linkFree - p.now).Seconds() / float64(p.MSS)
}

// ResetStats starts a measurement window for Throughput, MeanQueue and
// LossRate.
func (p *Path) ResetStats() { p.stats = stats{from: p.now} }

// Utilisation runs the path to warm, starts a measurement window there and
// runs on to until; it returns the throughput over that window as a
// fraction of the bottleneck rate at t = 0.
func (p *Path) Utilisation(warm, until time.Duration) float64 {
	p.Run(warm)
	p.ResetStats()
	p.Run(until)
	return p.Throughput() / p.Rate(0)
}

// Throughput is the acknowledged bytes/s since ResetStats.
func (p *Path) Throughput() float64 {
	return float64(p.stats.ackedBytes) / (p.now - p.stats.from).Seconds()
}

// LossRate is the fraction of bytes lost among those acknowledged or
// lost since ResetStats.
func (p *Path) LossRate() float64 {
	s := p.stats
	return float64(s.lostBytes) / float64(s.ackedBytes+s.lostBytes)
}

// MeanQueue is the mean backlog found by acknowledged segments on arrival
// since ResetStats, in segments: (RTT − base RTT) × C / MSS − 1, the one
// being the segment's own transmission time. It assumes a constant Rate.
func (p *Path) MeanQueue() float64 {
	if p.stats.acks == 0 {
		return 0
	}
	return (p.stats.qdelaySum/time.Duration(p.stats.acks)).Seconds()*p.Rate(p.now)/float64(p.MSS) - 1
}
