package tracelink

import (
	"errors"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/trace"
)

// DelayLine delays every packet by a LeoReplayer delay trace
// (delay_queue.cc, DelayQueue::read_packet): a packet entering at t leaves
// at t + d.At(t), the interval's delay held over the whole interval
// (trace.Delays.At). Packets leave in order of that time, so a delay that
// falls by more than the spacing of two packets reorders them, as
// LeoReplayer's priority queue does; packets due at the same time leave in
// the order they came (LeoReplayer's heap leaves that open; ours is
// deterministic).
type DelayLine struct {
	d   *trace.Delays
	h   []entry // min-heap by (at, seq)
	seq uint64
}

type entry struct {
	at  time.Duration
	seq uint64
	p   *packet.Packet
}

func (a entry) before(b entry) bool { return a.at < b.at || (a.at == b.at && a.seq < b.seq) }

var _ link.Stage = (*DelayLine)(nil)

// NewDelayLine returns a delay line replaying d.
func NewDelayLine(d *trace.Delays) (*DelayLine, error) {
	if d == nil || len(d.D) == 0 || d.Interval <= 0 {
		return nil, errors.New("trace delay line: needs a delay trace of at least one interval")
	}
	return &DelayLine{d: d}, nil
}

// Enqueue starts p's delay.
func (l *DelayLine) Enqueue(now time.Duration, p *packet.Packet) {
	at := now
	if now >= 0 {
		at += l.d.At(now)
	}
	l.seq++
	l.h = append(l.h, entry{at: at, seq: l.seq, p: p})
	l.up(len(l.h) - 1)
}

// Dequeue releases the packet due first once its time has come.
func (l *DelayLine) Dequeue(now time.Duration) *packet.Packet {
	if len(l.h) == 0 || l.h[0].at > now {
		return nil
	}
	p := l.h[0].p
	last := len(l.h) - 1
	l.h[0] = l.h[last]
	l.h[last] = entry{}
	l.h = l.h[:last]
	if last > 0 {
		l.down(0)
	}
	return p
}

// NextEvent is the release time of the packet due first.
func (l *DelayLine) NextEvent() time.Duration {
	if len(l.h) == 0 {
		return never
	}
	return l.h[0].at
}

// Len returns the packets in flight on the line.
func (l *DelayLine) Len() int { return len(l.h) }

func (l *DelayLine) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !l.h[i].before(l.h[p]) {
			return
		}
		l.h[i], l.h[p] = l.h[p], l.h[i]
		i = p
	}
}

func (l *DelayLine) down(i int) {
	n := len(l.h)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && l.h[r].before(l.h[c]) {
			c = r
		}
		if !l.h[c].before(l.h[i]) {
			return
		}
		l.h[i], l.h[c] = l.h[c], l.h[i]
		i = c
	}
}
