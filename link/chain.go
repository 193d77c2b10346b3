package link

import (
	"time"

	"github.com/leolab/leolab/packet"
)

// Chain composes stages in series into one Stage: a packet released by stage
// i enters stage i+1 at that moment. Callers must poll at NextEvent so that
// hand-overs happen at their exact times.
type Chain struct {
	stages []Stage
}

// NewChain returns the series composition of stages (at least one).
func NewChain(stages ...Stage) *Chain {
	if len(stages) == 0 {
		panic("leolab BUG: link.NewChain with no stages")
	}
	return &Chain{stages: stages}
}

// Enqueue hands p to the first stage.
func (c *Chain) Enqueue(now time.Duration, p *packet.Packet) {
	c.stages[0].Enqueue(now, p)
}

// Dequeue moves every due packet one stage on, then releases from the last.
func (c *Chain) Dequeue(now time.Duration) *packet.Packet {
	last := len(c.stages) - 1
	for i := 0; i < last; i++ {
		for p := c.stages[i].Dequeue(now); p != nil; p = c.stages[i].Dequeue(now) {
			c.stages[i+1].Enqueue(now, p)
		}
	}
	return c.stages[last].Dequeue(now)
}

// NextEvent is the earliest event of any stage.
func (c *Chain) NextEvent() time.Duration {
	t := Never
	for _, s := range c.stages {
		t = min(t, s.NextEvent())
	}
	return t
}

// Snapshot sums the queues of observable stages and reports the lowest
// service rate among them (the bottleneck's).
func (c *Chain) Snapshot(now time.Duration) Snapshot {
	var out Snapshot
	for _, s := range c.stages {
		o, ok := s.(Observable)
		if !ok {
			continue
		}
		sn := o.Snapshot(now)
		out.QueuePackets += sn.QueuePackets
		out.QueueBytes += sn.QueueBytes
		if sn.RateBps > 0 && (out.RateBps == 0 || sn.RateBps < out.RateBps) {
			out.RateBps = sn.RateBps
		}
	}
	return out
}
