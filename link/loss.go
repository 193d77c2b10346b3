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
// Survivors pass through immediately. Its draws come from a sequential
// stream (NewLoss) or are keyed by arrival bin and position (NewKeyedLoss,
// common random numbers: see Draw).
type Loss struct {
	p     float64
	rng   *rand.Rand
	keyed bool
	key   uint64
	bins  Binner
	drop  DropFunc
	q     packet.FIFO
}

// procLoss names Loss's draws for Draw.
const procLoss = 1

// NewLoss returns an i.i.d. loss stage with probability p in [0, 1).
func NewLoss(p float64, rng *rand.Rand, drop DropFunc) (*Loss, error) {
	if err := quantity.Probability(p); err != nil { // NaN too: it passed p < 0 || p >= 1
		return nil, fmt.Errorf("loss probability: %w", err)
	}
	return &Loss{p: p, rng: rng, drop: drop}, nil
}

// NewKeyedLoss returns an i.i.d. loss stage whose draw for a packet is
// Draw(key, ·, bin, position) of its arrival's bin of width bin: two runs
// with one key lose the n-th arrival of a bin together.
func NewKeyedLoss(p float64, key uint64, bin time.Duration, drop DropFunc) (*Loss, error) {
	if bin <= 0 {
		return nil, fmt.Errorf("loss bin %v: must be positive", bin)
	}
	l, err := NewLoss(p, nil, drop)
	if err != nil {
		return nil, err
	}
	l.keyed, l.key, l.bins.Width = true, key, bin
	return l, nil
}

// Enqueue drops p with probability p, else holds it for immediate release.
func (l *Loss) Enqueue(now time.Duration, p *packet.Packet) {
	if l.p > 0 && l.draw(now) < l.p {
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

// draw is the uniform of an arrival at now.
func (l *Loss) draw(now time.Duration) float64 {
	if !l.keyed {
		return l.rng.Float64()
	}
	bin, pos := l.bins.Next(now)
	return Draw(l.key, procLoss, bin, pos)
}
