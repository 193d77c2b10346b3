package qdisc

import (
	"math"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// CoDel defaults (RFC 8289 §4.2 and §4.3; Linux net/sched/sch_codel.c).
const (
	CoDelTarget   = 5 * time.Millisecond   // TARGET, RFC 8289 §4.4
	CoDelInterval = 100 * time.Millisecond // INTERVAL, RFC 8289 §4.3
	// CoDelLimit is sch_codel's default limit, packets.
	CoDelLimit = 1000
	// maxPacket is MAXPACKET of RFC 8289 §5.4 (an MTU): below a queue of
	// one MTU the queue is never above target.
	maxPacket = packet.MTU
)

// codelParams are CoDel's configuration (RFC 8289 §5.2).
type codelParams struct {
	target, interval time.Duration
}

// codelVars is one CoDel instance's state (RFC 8289 §5.2); FQ-CoDel keeps
// one per flow.
type codelVars struct {
	count          int           // packets dropped since entering drop state
	lastcount      int           // count at the previous entry into drop state
	dropping       bool          // in drop state
	firstAboveTime time.Duration // when sojourn first went above target; 0 when not
	dropNext       time.Duration // time to drop the next packet
}

// controlLaw is RFC 8289 §5.5: t + interval/sqrt(count).
func (p *codelParams) controlLaw(t time.Duration, count int) time.Duration {
	return t + time.Duration(float64(p.interval)/math.Sqrt(float64(count)))
}

// counted is the storage a CoDel instance dequeues from: one FIFO, whose
// packets also count in an enclosing total (the whole qdisc's backlog,
// which RFC 8289 §5.4's MAXPACKET test and FQ-CoDel use).
type counted struct {
	q     *packet.FIFO
	total *backlog
}

// backlog counts a qdisc's packets and bytes.
type backlog struct{ n, bytes int }

func (b *backlog) add(p *packet.Packet) { b.n++; b.bytes += p.Size }
func (b *backlog) sub(p *packet.Packet) { b.n--; b.bytes -= p.Size }

func (c counted) pop() *packet.Packet {
	p := c.q.Pop()
	if p != nil {
		c.total.sub(p)
	}
	return p
}

// doDequeue is RFC 8289 §5.4 dodequeue: pop the head and say whether its
// sojourn has been above target for an interval (okToDrop).
func (v *codelVars) doDequeue(now time.Duration, pr *codelParams, c counted) (p *packet.Packet, okToDrop bool) {
	p = c.pop()
	if p == nil {
		// RFC 8289 §5.4: "queue is empty - we can't be above TARGET".
		v.firstAboveTime = 0
		return nil, false
	}
	sojournTime := now - p.EnqueuedAt
	if sojournTime < pr.target || c.total.bytes <= maxPacket {
		// "went below - stay below for at least INTERVAL".
		v.firstAboveTime = 0
		return p, false
	}
	if v.firstAboveTime == 0 {
		// "just went above from below. If still above at first_above_time,
		// will say it's ok to drop."
		v.firstAboveTime = now + pr.interval
	} else if now >= v.firstAboveTime {
		okToDrop = true
	}
	return p, okToDrop
}

// dequeue is RFC 8289 §5.5 dequeue, with ECN marking in place of a drop
// where sig allows (as Linux codel_dequeue: a marked packet is delivered
// and ends this dequeue).
func (v *codelVars) dequeue(now time.Duration, pr *codelParams, c counted, sig *signal) *packet.Packet {
	p, okToDrop := v.doDequeue(now, pr, c)
	if p == nil {
		v.dropping = false // "an empty queue takes us out of dropping state"
		return nil
	}
	if v.dropping {
		if !okToDrop {
			v.dropping = false // "sojourn time below TARGET - leave drop state"
		}
		// "Time for the next drop. Drop current packet and dequeue next.
		// If the dequeue doesn't take us out of dropping state, schedule
		// the next drop."
		for now >= v.dropNext && v.dropping {
			v.count++
			if !sig.congest(now, p) { // marked: deliver it
				v.dropNext = pr.controlLaw(v.dropNext, v.count)
				return p
			}
			p, okToDrop = v.doDequeue(now, pr, c)
			if !okToDrop {
				v.dropping = false // "leave drop state"
			} else {
				v.dropNext = pr.controlLaw(v.dropNext, v.count)
			}
		}
		return p
	}
	if okToDrop {
		// "If we get here, we're not in drop state. The 'ok_to_drop'
		// return from dodequeue means that the sojourn time has been
		// above TARGET for INTERVAL, so enter drop state."
		marked := !sig.congest(now, p)
		if !marked {
			p, _ = v.doDequeue(now, pr, c)
		}
		v.dropping = true
		// "If min went above TARGET close to when it last went below,
		// assume that the drop rate that controlled the queue on the last
		// cycle is a good starting point to control it now. ('drop_next'
		// will be at most 'INTERVAL' later than the time of the last drop,
		// so 'now - drop_next' is a good approximation of the time from
		// the last drop until now.)"
		delta := v.count - v.lastcount
		v.count = 1
		if delta > 1 && now-v.dropNext < 16*pr.interval {
			v.count = delta
		}
		v.dropNext = pr.controlLaw(now, v.count)
		v.lastcount = v.count
	}
	return p
}

// CoDel is the CoDel AQM (RFC 8289) on a single FIFO.
type CoDel struct {
	signal
	params codelParams
	vars   codelVars
	limit  link.QueueLimit
	q      packet.FIFO
	total  backlog
}

var _ link.Queue = (*CoDel)(nil)

// NewCoDel returns a CoDel queue with the given target and interval
// (CoDelTarget, CoDelInterval for RFC 8289's defaults). Overflow of limit
// drops the arrival, as sch_codel does.
func NewCoDel(target, interval time.Duration, limit link.QueueLimit, ecn bool, drop link.DropFunc) *CoDel {
	return &CoDel{signal: signal{ecn: ecn, drop: drop}, params: codelParams{target, interval}, limit: limit}
}

// Enqueue timestamps p (RFC 8289 §5.3) and appends it, or tail-drops it
// when the queue is full.
func (c *CoDel) Enqueue(now time.Duration, p *packet.Packet) {
	if c.limit.Full(c.total.n, c.total.bytes, p.Size) {
		c.drop(now, p, link.DropTail)
		return
	}
	p.EnqueuedAt = now
	c.q.Push(p)
	c.total.add(p)
}

// Dequeue runs RFC 8289's dequeue.
func (c *CoDel) Dequeue(now time.Duration) *packet.Packet {
	return c.vars.dequeue(now, &c.params, counted{&c.q, &c.total}, &c.signal)
}

// Len returns the packets queued.
func (c *CoDel) Len() int { return c.total.n }

// Bytes returns the bytes queued.
func (c *CoDel) Bytes() int { return c.total.bytes }

// Dropping reports whether CoDel is in drop state (for tests and traces).
func (c *CoDel) Dropping() bool { return c.vars.dropping }
