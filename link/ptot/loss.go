package ptot

import (
	"errors"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// slotRates is a slot's precomputed p_tot, so a packet costs one division
// and one draw.
type slotRates struct {
	in, out  float64 // inside and outside the handover window
	handover bool
	outage   bool
}

// Loss drops each packet with its slot's p_tot (inside the handover window
// after a serving-satellite change, p_ho included) as link.DropRandom, and
// every packet of an outage slot as link.DropOutage. Survivors pass
// through at once. It implements link.Stage.
type Loss struct {
	first, length, window time.Duration
	slots                 []slotRates
	rng                   *rand.Rand
	drop                  link.DropFunc
	q                     packet.FIFO
	// cur is the slot of the last packet and [curStart, curEnd) its span:
	// arrivals come in time order, so a packet usually finds its slot
	// without a division.
	// curWin ends the slot's handover window (minDuration without one).
	cur                      int
	curStart, curEnd, curWin time.Duration
}

var _ link.Stage = (*Loss)(nil)

// NewLoss returns the loss stage of s, drawing from rng (the run's seeded
// stream) and reporting drops to drop.
func NewLoss(s Slots, rng *rand.Rand, drop link.DropFunc) (*Loss, error) {
	switch {
	case len(s.Slots) == 0 || s.Length <= 0:
		return nil, errors.New("ptot loss: no slots")
	case rng == nil || drop == nil:
		return nil, errors.New("ptot loss: a random stream and a drop function are required")
	}
	l := &Loss{first: s.First, length: s.Length, window: s.Window, slots: make([]slotRates, len(s.Slots)), rng: rng, drop: drop, curEnd: minDuration}
	for k := range s.Slots {
		sl := &s.Slots[k]
		if err := sl.Legs.Validate(); err != nil {
			return nil, err
		}
		in, out := sl.probabilities()
		l.slots[k] = slotRates{in: in, out: out, handover: sl.Handover, outage: sl.Outage}
	}
	return l, nil
}

// Enqueue drops p with the probability of now's slot, else holds it for
// immediate release.
func (l *Loss) Enqueue(now time.Duration, p *packet.Packet) {
	if now < l.curStart || now >= l.curEnd {
		l.seek(now)
	}
	s := &l.slots[l.cur]
	if s.outage {
		l.drop(now, p, link.DropOutage)
		return
	}
	pr := s.out
	if now < l.curWin {
		pr = s.in
	}
	if pr > 0 && l.rng.Float64() < pr {
		l.drop(now, p, link.DropRandom)
		return
	}
	p.EnqueuedAt = now
	l.q.Push(p)
}

// seek finds the slot of now (clamped to the schedule: the first slot
// extends back, the last forward).
func (l *Loss) seek(now time.Duration) {
	k := slotIndex(l.first, l.length, len(l.slots), now)
	l.cur = k
	l.curStart, l.curEnd = l.first+time.Duration(k)*l.length, l.first+time.Duration(k+1)*l.length
	l.curWin = minDuration
	if l.slots[k].handover {
		l.curWin = l.curStart + l.window
	}
	if k == 0 {
		l.curStart = minDuration
	}
	if k == len(l.slots)-1 {
		l.curEnd = link.Never
	}
}

// minDuration is the earliest time.Duration.
const minDuration = time.Duration(-1 << 63)

// Dequeue releases survivors.
func (l *Loss) Dequeue(time.Duration) *packet.Packet { return l.q.Pop() }

// NextEvent is the arrival time of the oldest survivor.
func (l *Loss) NextEvent() time.Duration {
	if h := l.q.Peek(); h != nil {
		return h.EnqueuedAt
	}
	return link.Never
}
