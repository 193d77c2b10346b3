package starlink

import (
	"time"

	"github.com/leolab/leolab/packet"
)

// line is the propagation line after the scheduler: packets in release
// order with their release times (kept beside the packets, so the packet's
// own timestamps stay untouched). It grows by doubling and never shrinks,
// so steady-state operation allocates nothing.
type line struct {
	q     packet.FIFO
	times []time.Duration // circular, parallel to q
	head  int
	last  time.Duration // latest release time given out (keeps FIFO order)
}

func (l *line) push(p *packet.Packet, release time.Duration) {
	release = max(release, l.last)
	l.last = release
	n := l.q.Len()
	if n == len(l.times) {
		grown := make([]time.Duration, max(64, 2*len(l.times)))
		for k := range n {
			grown[k] = l.times[(l.head+k)%len(l.times)]
		}
		l.times, l.head = grown, 0
	}
	l.times[(l.head+n)%len(l.times)] = release
	l.q.Push(p)
}

// next is the release time of the head, or never.
func (l *line) next() time.Duration {
	if l.q.Len() == 0 {
		return never
	}
	return l.times[l.head]
}

// pop releases the head if due at now.
func (l *line) pop(now time.Duration) *packet.Packet {
	if l.q.Len() == 0 || l.times[l.head] > now {
		return nil
	}
	l.head = (l.head + 1) % len(l.times)
	return l.q.Pop()
}

func (l *line) Len() int { return l.q.Len() }
