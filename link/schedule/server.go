package schedule

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// Server serves a queue at a rate that follows a Profile (bits/s). Like
// link.Server, the packet on the wire has left the queue and the next one
// starts when the previous one finished or when it arrived, whichever is
// later. A packet's last bit leaves when the rate integrated from its start
// reaches its size: a change during its serialisation applies to the bits
// not yet sent (see the package doc).
type Server struct {
	q    link.Queue
	prof Profile

	wire     *packet.Packet
	wireDone time.Duration
	lastDone time.Duration
}

var (
	_ link.Stage      = (*Server)(nil)
	_ link.Observable = (*Server)(nil)
)

// NewServer returns a server of q whose rate follows rate, in bits/s. Every
// value the rate takes must be in quantity's link range.
func NewServer(rate Profile, q link.Queue) (*Server, error) {
	if q == nil {
		return nil, fmt.Errorf("scheduled server: no queue")
	}
	if rate.segs == nil {
		return nil, fmt.Errorf("scheduled server: no rate")
	}
	for _, v := range []float64{rate.Min(), rate.Max()} {
		if err := quantity.LinkRate(v); err != nil {
			return nil, fmt.Errorf("scheduled server rate: %w", err)
		}
	}
	return &Server{q: q, prof: rate}, nil
}

// Queue returns the discipline the server serves.
func (s *Server) Queue() link.Queue { return s.q }

// Enqueue offers p to the queue and starts serving it if the wire is idle.
func (s *Server) Enqueue(now time.Duration, p *packet.Packet) {
	s.q.Enqueue(now, p)
	if s.wire == nil {
		s.startNext(now)
	}
}

func (s *Server) startNext(t time.Duration) {
	p := s.q.Dequeue(t)
	if p == nil {
		return
	}
	s.wire = p
	start := max(s.lastDone, p.EnqueuedAt)
	s.wireDone = s.prof.finish(start, float64(p.Size)*8)
}

// Dequeue releases the packet on the wire once its last bit is served.
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

// NextEvent is when the packet on the wire is done.
func (s *Server) NextEvent() time.Duration {
	if s.wire == nil {
		return link.Never
	}
	return s.wireDone
}

// Snapshot reports the queue (with the packet on the wire) and the rate now.
func (s *Server) Snapshot(now time.Duration) link.Snapshot {
	n, b := s.q.Len(), s.q.Bytes()
	if s.wire != nil {
		n++
		b += s.wire.Size
	}
	return link.Snapshot{QueuePackets: n, QueueBytes: b, RateBps: s.prof.Value(now)}
}
