package link

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
)

// Never is the time of an event that never comes (sim.Never).
const Never = sim.Never

// QueueLimit bounds a queue in packets, bytes or both; zero means unbounded
// on that axis.
type QueueLimit struct {
	Packets int
	Bytes   int
}

// Server serves a Queue at a fixed rate: it takes the next packet from the
// queue when the wire is free, serialises it for Size·8/rate and then
// releases it. The packet on the wire has left the queue, so it does not
// count against the queue's limit (as under a Linux qdisc, which hands a
// packet to the device when the device is ready).
type Server struct {
	rateBps float64
	q       Queue

	wire     *packet.Packet // being serialised, or nil
	wireDone time.Duration  // when wire finishes serialisation
	lastDone time.Duration  // when the previous packet finished
}

// Bottleneck is a drop-tail FIFO served at a fixed rate.
type Bottleneck = Server

// NewServer returns a server of rateBps bits/s for q. The rate must be in
// quantity's link range: at 1e-300 bit/s a packet's serialisation time
// does not fit in a time.Duration, and the conversion's garbage made the
// link infinitely fast.
func NewServer(rateBps float64, q Queue) (*Server, error) {
	if err := quantity.LinkRate(rateBps); err != nil {
		return nil, fmt.Errorf("bottleneck rate: %w", err)
	}
	if q == nil {
		return nil, fmt.Errorf("bottleneck: no queue")
	}
	return &Server{rateBps: rateBps, q: q}, nil
}

// NewBottleneck returns a drop-tail queue served at rateBps bits/s.
func NewBottleneck(rateBps float64, limit QueueLimit, drop DropFunc) (*Bottleneck, error) {
	if err := quantity.LinkRate(rateBps); err != nil {
		return nil, fmt.Errorf("bottleneck rate: %w", err)
	}
	q, err := NewTailDrop(limit, drop)
	if err != nil {
		return nil, fmt.Errorf("bottleneck %w", err)
	}
	return NewServer(rateBps, q)
}

// Queue returns the discipline the server serves.
func (s *Server) Queue() Queue { return s.q }

func (s *Server) txTime(p *packet.Packet) time.Duration {
	return time.Duration(float64(p.Size) * 8 / s.rateBps * float64(time.Second))
}

// Enqueue offers p to the queue and starts serving it if the wire is idle.
func (s *Server) Enqueue(now time.Duration, p *packet.Packet) {
	s.q.Enqueue(now, p)
	if s.wire == nil {
		s.startNext(now)
	}
}

// startNext puts the queue's next packet on the wire when it becomes free
// at t. It starts when the previous one finished or when it arrived,
// whichever is later, independent of when we were polled.
func (s *Server) startNext(t time.Duration) {
	p := s.q.Dequeue(t)
	if p == nil {
		return
	}
	s.wire = p
	s.wireDone = max(s.lastDone, p.EnqueuedAt) + s.txTime(p)
}

// Dequeue releases the packet on the wire once its serialisation has
// finished, and starts the next.
func (s *Server) Dequeue(now time.Duration) *packet.Packet {
	p := s.wire
	if p == nil || s.wireDone > now {
		return nil
	}
	s.wire = nil
	s.lastDone = s.wireDone
	s.startNext(s.lastDone)
	return p
}

// NextEvent is when the packet on the wire finishes serialisation.
func (s *Server) NextEvent() time.Duration {
	if s.wire == nil {
		return Never
	}
	return s.wireDone
}

// Snapshot reports the queue (including the packet on the wire) and rate.
func (s *Server) Snapshot(time.Duration) Snapshot {
	n, b := s.q.Len(), s.q.Bytes()
	if s.wire != nil {
		n++
		b += s.wire.Size
	}
	return Snapshot{QueuePackets: n, QueueBytes: b, RateBps: s.rateBps}
}
