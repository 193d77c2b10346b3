package starlink

import (
	"time"

	"github.com/leolab/leolab/packet"
)

// popLimiter is the PoP rate limiter in front of the downlink (seed 001
// finding 12): above its rate, offered traffic waits in an upstream FIFO
// served at that rate; beyond its buffer, arrivals are discarded
// (DropPolicer). Below the rate it adds only serialisation time.
type popLimiter struct {
	rate     float64 // bits/s
	limit    int     // packets
	q        line
	lastDone time.Duration
}

// offer queues p at now and returns false if the buffer is full.
func (l *popLimiter) offer(now time.Duration, p *packet.Packet) bool {
	if l.q.Len() >= l.limit {
		return false
	}
	start := max(now, l.lastDone)
	l.lastDone = start + time.Duration(float64(p.Size)*8/l.rate*float64(time.Second))
	l.q.push(p, l.lastDone)
	return true
}
