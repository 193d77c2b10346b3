package link

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/packet"
)

// Queue is a queue discipline: it holds the packets waiting for a Server.
// Disciplines live in link/qdisc; TailDrop, the default, lives here because
// NewBottleneck is built on it.
//
// A queue reports every packet it discards to the DropFunc it was built
// with, at enqueue (overflow, early drop) or at dequeue (sojourn-time AQMs).
type Queue interface {
	// Enqueue offers p at time now; the queue sets p.EnqueuedAt and owns p
	// until Dequeue returns it or it is dropped.
	Enqueue(now time.Duration, p *packet.Packet)
	// Dequeue returns the packet to serve next at time now, or nil when the
	// queue is empty. An AQM may drop (or ECN-mark) packets on the way.
	Dequeue(now time.Duration) *packet.Packet
	// Len and Bytes count the packets queued (not the one being served).
	Len() int
	Bytes() int
}

// Full reports whether a queue holding n packets of b bytes has no room
// for one more of size bytes under the limit.
func (l QueueLimit) Full(n, b, size int) bool {
	return (l.Packets > 0 && n >= l.Packets) || (l.Bytes > 0 && b+size > l.Bytes)
}

// Validate checks that both axes are >= 0.
func (l QueueLimit) Validate() error {
	if l.Packets < 0 || l.Bytes < 0 {
		return fmt.Errorf("queue limit %+v: must be >= 0", l)
	}
	return nil
}

// TailDrop is a FIFO that discards an arriving packet that does not fit
// under its limit (the drop-tail queue of a Linux pfifo/bfifo qdisc).
type TailDrop struct {
	limit QueueLimit
	drop  DropFunc
	q     packet.FIFO
}

var _ Queue = (*TailDrop)(nil)

// NewTailDrop returns a drop-tail FIFO bounded by limit.
func NewTailDrop(limit QueueLimit, drop DropFunc) (*TailDrop, error) {
	if err := limit.Validate(); err != nil {
		return nil, err
	}
	return &TailDrop{limit: limit, drop: drop}, nil
}

// Enqueue appends p, or drops it (DropTail) when it does not fit.
func (t *TailDrop) Enqueue(now time.Duration, p *packet.Packet) {
	if t.limit.Full(t.q.Len(), t.q.Bytes(), p.Size) {
		t.drop(now, p, DropTail)
		return
	}
	p.EnqueuedAt = now
	t.q.Push(p)
}

// Dequeue pops the head.
func (t *TailDrop) Dequeue(time.Duration) *packet.Packet { return t.q.Pop() }

// Len returns the packets queued.
func (t *TailDrop) Len() int { return t.q.Len() }

// Bytes returns the bytes queued.
func (t *TailDrop) Bytes() int { return t.q.Bytes() }
