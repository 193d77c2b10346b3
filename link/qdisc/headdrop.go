package qdisc

import (
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// HeadDrop is a FIFO that, when an arrival does not fit, drops the oldest
// packets until it does (Linux pfifo_head_drop; the policy seed 001 found
// in Starlink's buffers). The queue keeps the newest packets.
type HeadDrop struct {
	limit link.QueueLimit
	drop  link.DropFunc
	q     packet.FIFO
}

var _ link.Queue = (*HeadDrop)(nil)

// NewHeadDrop returns a head-drop FIFO bounded by limit.
func NewHeadDrop(limit link.QueueLimit, drop link.DropFunc) *HeadDrop {
	return &HeadDrop{limit: limit, drop: drop}
}

// Enqueue appends p, first dropping from the head until it fits.
func (h *HeadDrop) Enqueue(now time.Duration, p *packet.Packet) {
	for h.q.Len() > 0 && h.limit.Full(h.q.Len(), h.q.Bytes(), p.Size) {
		h.drop(now, h.q.Pop(), link.DropHead)
	}
	if h.limit.Full(h.q.Len(), h.q.Bytes(), p.Size) { // larger than the byte limit
		h.drop(now, p, link.DropTail)
		return
	}
	p.EnqueuedAt = now
	h.q.Push(p)
}

// Dequeue pops the head.
func (h *HeadDrop) Dequeue(time.Duration) *packet.Packet { return h.q.Pop() }

// Len returns the packets queued.
func (h *HeadDrop) Len() int { return h.q.Len() }

// Bytes returns the bytes queued.
func (h *HeadDrop) Bytes() int { return h.q.Bytes() }
