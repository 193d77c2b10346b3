package link

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/packet"
)

// Delay is a propagation delay line: every packet is released a fixed time
// after it entered. Order is preserved.
type Delay struct {
	d time.Duration
	q packet.FIFO
}

// NewDelay returns a delay line of d (d >= 0).
func NewDelay(d time.Duration) (*Delay, error) {
	if d < 0 {
		return nil, fmt.Errorf("delay %v: must be >= 0", d)
	}
	return &Delay{d: d}, nil
}

// Enqueue starts p's propagation.
func (l *Delay) Enqueue(now time.Duration, p *packet.Packet) {
	p.EnqueuedAt = now
	l.q.Push(p)
}

// Dequeue releases the oldest packet once its delay has elapsed.
func (l *Delay) Dequeue(now time.Duration) *packet.Packet {
	if h := l.q.Peek(); h != nil && h.EnqueuedAt+l.d <= now {
		return l.q.Pop()
	}
	return nil
}

// NextEvent is the release time of the oldest packet.
func (l *Delay) NextEvent() time.Duration {
	if h := l.q.Peek(); h != nil {
		return h.EnqueuedAt + l.d
	}
	return Never
}

// Len returns the packets in flight on the line.
func (l *Delay) Len() int { return l.q.Len() }
