package tracelink

import (
	"errors"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/trace"
)

// never is a time that never comes (sim.Never).
const never = link.Never

// rateWindow is the span over which Snapshot reports the trace's capacity
// (ten of Mahimahi's 1 ms steps smooth its per-millisecond granularity).
const rateWindow = 100 * time.Millisecond

// Server delivers the packets of a queue at a trace's delivery
// opportunities, with Mahimahi's semantics (src/frontend/link_queue.cc,
// LinkQueue::rationalize): each opportunity carries bytesPer bytes; the
// packet in service takes what it still needs and, once complete, leaves at
// that opportunity's time, and the rest goes to the next queued packet; an
// opportunity finding nothing queued is lost; opportunities at or before
// an arrival's time are used before it joins the queue. The packet in
// service has left the queue (it does not count against the queue's
// limit), as in Mahimahi. At the end of the trace it starts again, shifted
// by its last timestamp.
//
// Unlike Mahimahi, which refuses packets above 1504 bytes, a larger packet
// is served over as many opportunities as it needs.
type Server struct {
	ms       []uint32
	period   time.Duration
	bytesPer int
	meanBps  float64
	q        link.Queue

	idx  int           // next opportunity
	base time.Duration // start of the current loop
	cur  *packet.Packet
	left int         // bytes cur still needs
	out  packet.FIFO // complete, EnqueuedAt = their opportunity's time
}

var (
	_ link.Stage      = (*Server)(nil)
	_ link.Observable = (*Server)(nil)
)

// NewServer returns a server of o's opportunities, bytesPer bytes each
// (trace.OpportunityBytes for Mahimahi and LeoReplayer), for the queue q.
func NewServer(o *trace.Opportunities, bytesPer int, q link.Queue) (*Server, error) {
	if o == nil || len(o.MS) == 0 || o.MS[len(o.MS)-1] == 0 {
		return nil, errors.New("trace server: needs a trace of at least one opportunity lasting > 0 ms")
	}
	if bytesPer <= 0 {
		return nil, errors.New("trace server: bytes per opportunity must be > 0")
	}
	if q == nil {
		return nil, errors.New("trace server: no queue")
	}
	return &Server{ms: o.MS, period: o.Period(), bytesPer: bytesPer, meanBps: o.MeanRateBps(bytesPer), q: q}, nil
}

// Queue returns the discipline the server serves.
func (s *Server) Queue() link.Queue { return s.q }

func (s *Server) next() time.Duration {
	return s.base + time.Duration(s.ms[s.idx])*time.Millisecond
}

func (s *Server) step() {
	s.idx++
	if s.idx == len(s.ms) {
		s.idx = 0
		s.base += s.period
	}
}

// skipPast moves to the first opportunity after now; those it passes are
// lost (nothing waits for them).
func (s *Server) skipPast(now time.Duration) {
	if now < s.base {
		return
	}
	s.base += (now - s.base) / s.period * s.period
	rel := now - s.base
	lo, hi := 0, len(s.ms) // first index with ms > rel
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if time.Duration(s.ms[m])*time.Millisecond <= rel {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(s.ms) {
		lo = 0
		s.base += s.period
	}
	s.idx = lo
}

// run uses every opportunity at or before now.
func (s *Server) run(now time.Duration) {
	for {
		t := s.next()
		if t > now {
			return
		}
		if s.cur == nil && s.q.Len() == 0 {
			s.skipPast(now)
			return
		}
		s.step()
		budget := s.bytesPer
		for budget > 0 {
			if s.cur == nil {
				p := s.q.Dequeue(t)
				if p == nil {
					break
				}
				s.cur, s.left = p, p.Size
			}
			n := min(budget, s.left)
			s.left -= n
			budget -= n
			if s.left == 0 {
				s.cur.EnqueuedAt = t
				s.out.Push(s.cur)
				s.cur = nil
			}
		}
	}
}

// Enqueue uses the opportunities up to now, then offers p to the queue.
func (s *Server) Enqueue(now time.Duration, p *packet.Packet) {
	s.run(now)
	s.q.Enqueue(now, p)
}

// Dequeue releases a packet whose opportunity has come.
func (s *Server) Dequeue(now time.Duration) *packet.Packet {
	s.run(now)
	if h := s.out.Peek(); h != nil && h.EnqueuedAt <= now {
		return s.out.Pop()
	}
	return nil
}

// NextEvent is the next opportunity while packets wait, or the release of
// a complete packet.
func (s *Server) NextEvent() time.Duration {
	t := never
	if h := s.out.Peek(); h != nil {
		t = h.EnqueuedAt
	}
	if s.cur != nil || s.q.Len() > 0 {
		t = min(t, s.next())
	}
	return t
}

// Snapshot reports the queue (with the packet in service) and the trace's
// capacity over the coming rateWindow.
func (s *Server) Snapshot(now time.Duration) link.Snapshot {
	s.run(now)
	n, b := s.q.Len(), s.q.Bytes()
	if s.cur != nil {
		n++
		b += s.cur.Size
	}
	return link.Snapshot{QueuePackets: n, QueueBytes: b, RateBps: s.capacity(now)}
}

// capacity is bits/s over [now, now+rateWindow) of the trace (the mean
// rate when the window wraps past the trace's end).
func (s *Server) capacity(now time.Duration) float64 {
	if now < 0 {
		return s.meanBps
	}
	rel := (now % s.period) / time.Millisecond
	end := rel + rateWindow/time.Millisecond
	if end > time.Duration(s.ms[len(s.ms)-1]) {
		return s.meanBps
	}
	count := search(s.ms, uint32(end)) - search(s.ms, uint32(rel))
	return float64(count*s.bytesPer) * 8 / rateWindow.Seconds()
}

// search is the first index with ms[i] >= v.
func search(ms []uint32, v uint32) int {
	lo, hi := 0, len(ms)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ms[m] < v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
