package link

import (
	"fmt"
	"github.com/leolab/leolab/internal/quantity"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/packet"
)

// Loss drops each packet independently with probability p (i.i.d.
// Bernoulli, the loss model of Mathis et al. and of netem's "loss p%").
// Survivors pass through immediately.
type Loss struct {
	p    float64
	rng  *rand.Rand
	drop DropFunc
	q    packet.FIFO
}

// NewLoss returns an i.i.d. loss stage with probability p in [0, 1).
func NewLoss(p float64, rng *rand.Rand, drop DropFunc) (*Loss, error) {
	if err := quantity.Probability(p); err != nil { // NaN too: it passed p < 0 || p >= 1
		return nil, fmt.Errorf("loss probability: %w", err)
	}
	return &Loss{p: p, rng: rng, drop: drop}, nil
}

// Enqueue drops p with probability p, else holds it for immediate release.
func (l *Loss) Enqueue(now time.Duration, p *packet.Packet) {
	if l.p > 0 && l.rng.Float64() < l.p {
		l.drop(now, p, DropRandom)
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
	return Never
}
