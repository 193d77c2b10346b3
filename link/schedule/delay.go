package schedule

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// Delay is a propagation delay line whose delay follows the sum of two
// profiles (in seconds: a scheduled part and a path file's part) and which
// is down during a path file's outages. It never reorders: a packet
// entering at t leaves at max(t + d(t), the previous packet's departure),
// so when the delay drops, packets queue behind the last one sent on the
// longer delay instead of overtaking it (see the package doc).
type Delay struct {
	base, path Profile
	outages    Outages
	drop       link.DropFunc

	q        packet.FIFO
	release  ring // each queued packet's departure, in FIFO order
	lastDue  time.Duration
	released int64 // packets released later than t + d(t): the cost of keeping order
}

var _ link.Stage = (*Delay)(nil)

// NewDelay returns a delay line of base(t) + path(t) seconds (either
// profile may be the zero Profile, 0 s), down during outages (dropping with
// DropOutage, reported to drop). Every value must be in [0, quantity's
// MaxDelay].
func NewDelay(base, path Profile, outages Outages, drop link.DropFunc) (*Delay, error) {
	for _, p := range []*Profile{&base, &path} {
		if p.segs == nil {
			continue
		}
		for _, v := range []float64{p.Min(), p.Max()} {
			if err := quantity.Delay(durationOf(v)); err != nil || v < 0 {
				return nil, fmt.Errorf("scheduled delay %gs: must be in [0, %v]", v, quantity.MaxDelay)
			}
		}
	}
	if len(outages.spans) > 0 && drop == nil {
		return nil, fmt.Errorf("scheduled delay: outages need a drop function")
	}
	return &Delay{base: base, path: path, outages: outages, drop: drop}, nil
}

// At returns the delay a packet entering at t gets from the profiles alone
// (before the order rule).
func (l *Delay) At(t time.Duration) time.Duration {
	return time.Duration((l.base.Value(t) + l.path.Value(t)) * float64(time.Second))
}

// Enqueue starts p's propagation, or drops it when the path is down.
func (l *Delay) Enqueue(now time.Duration, p *packet.Packet) {
	if l.outages.Down(now) {
		l.drop(now, p, link.DropOutage)
		return
	}
	due := now + l.At(now)
	if due < l.lastDue {
		due = l.lastDue
		l.released++
	}
	l.lastDue = due
	p.EnqueuedAt = now
	l.q.Push(p)
	l.release.push(due)
}

// Dequeue releases the oldest packet once it is due.
func (l *Delay) Dequeue(now time.Duration) *packet.Packet {
	if l.q.Len() > 0 && l.release.front() <= now {
		l.release.pop()
		return l.q.Pop()
	}
	return nil
}

// NextEvent is the oldest packet's departure.
func (l *Delay) NextEvent() time.Duration {
	if l.q.Len() == 0 {
		return link.Never
	}
	return l.release.front()
}

// Len returns the packets in flight on the line.
func (l *Delay) Len() int { return l.q.Len() }

// Held counts the packets that left later than their own delay said,
// behind an earlier packet (the order rule at work).
func (l *Delay) Held() int64 { return l.released }

// ring is a growable FIFO of times; it allocates only to grow, so a line
// that has seen its largest flight allocates nothing per packet.
type ring struct {
	buf  []time.Duration
	head int
	n    int
}

func (r *ring) push(t time.Duration) {
	if r.n == len(r.buf) {
		nb := make([]time.Duration, max(64, 2*len(r.buf)))
		for i := range r.n {
			nb[i] = r.buf[(r.head+i)%len(r.buf)]
		}
		r.buf, r.head = nb, 0
	}
	r.buf[(r.head+r.n)%len(r.buf)] = t
	r.n++
}

func (r *ring) front() time.Duration { return r.buf[r.head] }

func (r *ring) pop() {
	r.head = (r.head + 1) % len(r.buf)
	r.n--
}
