package link

import (
	"time"

	"github.com/leolab/leolab/packet"
)

// Stage is one element of a one-way link.
type Stage interface {
	// Enqueue hands p to the stage at time now. The stage owns p until it
	// releases it from Dequeue or reports it dropped.
	Enqueue(now time.Duration, p *packet.Packet)
	// Dequeue returns a packet whose release time is at or before now, or
	// nil. Callers loop until nil.
	Dequeue(now time.Duration) *packet.Packet
	// NextEvent is the earliest time at which Dequeue may return a packet or
	// the stage's state changes; sim.Never when idle.
	NextEvent() time.Duration
}

// DropCause says why a link discarded a packet.
type DropCause uint8

const (
	DropHead    DropCause = iota // head-drop queue overflow: the oldest packet goes
	DropTail                     // drop-tail overflow: the arriving packet goes
	DropAQM                      // an active queue manager chose it
	DropRandom                   // i.i.d. (or modelled) random loss
	DropOutage                   // the link was down (reconfiguration, blackout)
	DropPolicer                  // a rate limiter/policer discarded it
	NumDropCauses
)

var dropNames = [NumDropCauses]string{"head", "tail", "aqm", "random", "outage", "policer"}

func (c DropCause) String() string {
	if c < NumDropCauses {
		return dropNames[c]
	}
	return "unknown"
}

// DropFunc receives every dropped packet with its cause. It takes ownership
// of the packet (the engine returns it to its pool).
type DropFunc func(now time.Duration, p *packet.Packet, cause DropCause)

// Snapshot is a link's observable state for time series.
type Snapshot struct {
	QueuePackets int
	QueueBytes   int
	// RateBps is the service rate currently allocated, bits/s (0 if the
	// stage has no notion of one).
	RateBps float64
}

// Observable stages report their state for the per-interval link series.
type Observable interface {
	Snapshot(now time.Duration) Snapshot
}
