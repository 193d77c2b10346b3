package link

import (
	"fmt"
	"time"

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

// Bottleneck is a drop-tail FIFO queue served at a fixed rate: the packet at
// the head is serialised for Size·8/rate and then released. The packet being
// serialised does not count against the limit (it is on the wire, as under a
// Linux qdisc).
type Bottleneck struct {
	rateBps float64
	limit   QueueLimit
	drop    DropFunc

	q        packet.FIFO
	headDone time.Duration // when the head packet finishes serialisation
	lastDone time.Duration // when the previous packet finished
}

// NewBottleneck returns a drop-tail queue served at rateBps bits/s.
func NewBottleneck(rateBps float64, limit QueueLimit, drop DropFunc) (*Bottleneck, error) {
	if rateBps <= 0 {
		return nil, fmt.Errorf("bottleneck rate %g bit/s: must be > 0", rateBps)
	}
	if limit.Packets < 0 || limit.Bytes < 0 {
		return nil, fmt.Errorf("bottleneck queue limit %+v: must be >= 0", limit)
	}
	return &Bottleneck{rateBps: rateBps, limit: limit, drop: drop}, nil
}

func (b *Bottleneck) txTime(p *packet.Packet) time.Duration {
	return time.Duration(float64(p.Size) * 8 / b.rateBps * float64(time.Second))
}

// Enqueue adds p at the tail, or drops it when the queue is full.
func (b *Bottleneck) Enqueue(now time.Duration, p *packet.Packet) {
	waiting := b.q.Len() // packets not yet on the wire
	waitingBytes := b.q.Bytes()
	if head := b.q.Peek(); head != nil {
		waiting--
		waitingBytes -= head.Size
	}
	if (b.limit.Packets > 0 && waiting >= b.limit.Packets) ||
		(b.limit.Bytes > 0 && waitingBytes+p.Size > b.limit.Bytes) {
		b.drop(now, p, DropTail)
		return
	}
	p.EnqueuedAt = now
	if b.q.Len() == 0 {
		start := max(now, b.lastDone)
		b.headDone = start + b.txTime(p)
	}
	b.q.Push(p)
}

// Dequeue releases the head once its serialisation has finished.
func (b *Bottleneck) Dequeue(now time.Duration) *packet.Packet {
	head := b.q.Peek()
	if head == nil || b.headDone > now {
		return nil
	}
	b.q.Pop()
	b.lastDone = b.headDone
	if next := b.q.Peek(); next != nil {
		// The next packet starts when the previous one finished (it was
		// queued by then), independent of when we were polled.
		b.headDone = max(b.lastDone, next.EnqueuedAt) + b.txTime(next)
	}
	return head
}

// NextEvent is when the head finishes serialisation.
func (b *Bottleneck) NextEvent() time.Duration {
	if b.q.Len() == 0 {
		return Never
	}
	return b.headDone
}

// Snapshot reports the queue (including the packet on the wire) and rate.
func (b *Bottleneck) Snapshot(time.Duration) Snapshot {
	return Snapshot{QueuePackets: b.q.Len(), QueueBytes: b.q.Bytes(), RateBps: b.rateBps}
}
