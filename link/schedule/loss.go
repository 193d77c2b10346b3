package schedule

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// Loss drops each packet independently with the probability its profile
// gives at the packet's arrival (i.i.d. Bernoulli as link.Loss, with p(t)).
// Survivors pass through immediately.
type Loss struct {
	p    Profile
	rng  *rand.Rand
	drop link.DropFunc
	q    packet.FIFO
}

var _ link.Stage = (*Loss)(nil)

// NewLoss returns a loss stage whose probability follows p; every value it
// takes must be in [0, 1).
func NewLoss(p Profile, rng *rand.Rand, drop link.DropFunc) (*Loss, error) {
	for _, v := range []float64{p.Min(), p.Max()} {
		if err := quantity.Probability(v); err != nil {
			return nil, fmt.Errorf("scheduled loss probability: %w", err)
		}
	}
	return &Loss{p: p, rng: rng, drop: drop}, nil
}

// Enqueue drops p with probability p(now), else holds it for release.
func (l *Loss) Enqueue(now time.Duration, p *packet.Packet) {
	if pr := l.p.Value(now); pr > 0 && l.rng.Float64() < pr {
		l.drop(now, p, link.DropRandom)
		return
	}
	p.EnqueuedAt = now
	l.q.Push(p)
}

// Dequeue releases survivors.
func (l *Loss) Dequeue(time.Duration) *packet.Packet { return l.q.Pop() }

// NextEvent is the arrival time of the oldest survivor.
func (l *Loss) NextEvent() time.Duration {
	if h := l.q.Peek(); h != nil {
		return h.EnqueuedAt
	}
	return link.Never
}
