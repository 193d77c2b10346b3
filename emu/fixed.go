package emu

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
)

// FixedLink returns a factory for a fixed one-way link: optional i.i.d. loss
// (seeded), a drop-tail queue of queuePkts packets served at rateBps, then
// a propagation delay — the "fixed" profile of DESIGN.md. The queue comes
// before the delay so that the queue's schedule, not the pump's polling,
// fixes every departure time.
func FixedLink(rateBps float64, delay time.Duration, queuePkts int, loss float64, seed uint64) StageFactory {
	return func(drop link.DropFunc) (link.Stage, error) {
		b, err := link.NewBottleneck(rateBps, link.QueueLimit{Packets: queuePkts}, drop)
		if err != nil {
			return nil, fmt.Errorf("fixed link: %w", err)
		}
		d, err := link.NewDelay(delay)
		if err != nil {
			return nil, fmt.Errorf("fixed link: %w", err)
		}
		if loss == 0 {
			return link.NewChain(b, d), nil
		}
		l, err := link.NewLoss(loss, rand.New(rand.NewPCG(seed, 0x6c6f7373)), drop)
		if err != nil {
			return nil, fmt.Errorf("fixed link: %w", err)
		}
		return link.NewChain(l, b, d), nil
	}
}
