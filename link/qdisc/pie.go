package qdisc

import (
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// PIE defaults (RFC 8033 §4 and §5; Linux net/sched/sch_pie.c).
const (
	PIETarget   = 15 * time.Millisecond  // QDELAY_REF, RFC 8033 §4.2
	PIETupdate  = 15 * time.Millisecond  // T_UPDATE, RFC 8033 §4.2
	PIEAlpha    = 0.125                  // alpha, Hz, RFC 8033 §4.2
	PIEBeta     = 1.25                   // beta, Hz, RFC 8033 §4.2
	PIEMaxBurst = 150 * time.Millisecond // MAX_BURST, RFC 8033 §4.4
	// PIELimit is sch_pie's default limit, packets.
	PIELimit = 1000
	// pieMarkECNth is mark_ecnth (RFC 8033 §5.1): above this drop
	// probability PIE drops even ECN-capable packets.
	pieMarkECNth = 0.1
	// pieMeanPktSize is MEAN_PKTSIZE (RFC 8033 §5.1; Linux uses the MTU):
	// with fewer than two of them queued PIE does not drop early.
	pieMeanPktSize = packet.MTU
)

// pieParams are PIE's configuration (RFC 8033 §4).
type pieParams struct {
	qdelayRef, tUpdate time.Duration
	alpha, beta        float64
	maxBurst           time.Duration
}

// pieVars is one PIE instance's state (RFC 8033 §4; FQ-PIE keeps one per
// flow, as Linux sch_fq_pie does).
type pieVars struct {
	dropProb       float64       // drop_prob_
	qdelay         time.Duration // current_qdelay: sojourn of the last dequeued packet
	qdelayOld      time.Duration // qdelay_old_
	burstAllowance time.Duration // burst_allowance_
	nextUpdate     time.Duration // when calculate_drop_prob next runs
}

func newPIEVars(pr *pieParams, now time.Duration) pieVars {
	return pieVars{burstAllowance: pr.maxBurst, nextUpdate: now + pr.tUpdate}
}

// dequeued records the queueing delay a departing packet saw, the
// timestamp estimate of RFC 8033 §4.3 (sch_pie's default): 0 when the
// queue is left empty.
func (v *pieVars) dequeued(now time.Duration, p *packet.Packet, left int) {
	v.qdelay = now - p.EnqueuedAt
	if left == 0 {
		v.qdelay = 0
	}
}

// catchUp runs calculate_drop_prob for every T_UPDATE boundary up to now.
func (v *pieVars) catchUp(now time.Duration, pr *pieParams) {
	for v.nextUpdate <= now {
		if v.dropProb == 0 && v.qdelay == 0 && v.qdelayOld == 0 && v.burstAllowance == pr.maxBurst {
			// Idle fixed point: every further update changes nothing.
			v.nextUpdate += (now - v.nextUpdate) / pr.tUpdate * pr.tUpdate
		}
		v.calculateDropProb(pr)
		v.nextUpdate += pr.tUpdate
	}
}

// calculateDropProb is RFC 8033 §4.2, including the auto-tuning of alpha
// and beta by the current drop probability.
func (v *pieVars) calculateDropProb(pr *pieParams) {
	cur := v.qdelay.Seconds()
	p := pr.alpha*(cur-pr.qdelayRef.Seconds()) + pr.beta*(cur-v.qdelayOld.Seconds())
	switch {
	case v.dropProb < 0.000001:
		p /= 2048
	case v.dropProb < 0.00001:
		p /= 512
	case v.dropProb < 0.0001:
		p /= 128
	case v.dropProb < 0.001:
		p /= 32
	case v.dropProb < 0.01:
		p /= 8
	case v.dropProb < 0.1:
		p /= 2
	}
	// "Cap Drop Adjustment": at high drop probabilities one step adds at
	// most 2%.
	if v.dropProb >= 0.1 && p > 0.02 {
		p = 0.02
	}
	v.dropProb += p
	// "Exponentially decay drop prob when congestion goes away."
	if v.qdelay == 0 && v.qdelayOld == 0 {
		v.dropProb *= 0.98
	}
	v.dropProb = min(max(v.dropProb, 0), 1)
	v.qdelayOld = v.qdelay
	v.burstAllowance = max(0, v.burstAllowance-pr.tUpdate)
	if v.dropProb == 0 && v.qdelay < pr.qdelayRef/2 && v.qdelayOld < pr.qdelayRef/2 {
		v.burstAllowance = pr.maxBurst
	}
}

// dropEarly is RFC 8033 §5.1 drop_early for an arrival finding
// backlogBytes queued.
func (v *pieVars) dropEarly(pr *pieParams, backlogBytes int, rng *rand.Rand) bool {
	if v.burstAllowance > 0 {
		return false
	}
	if v.qdelayOld < pr.qdelayRef/2 && v.dropProb < 0.2 {
		return false
	}
	if backlogBytes < 2*pieMeanPktSize {
		return false
	}
	return rng.Float64() < v.dropProb
}

// early applies dropEarly's verdict to p: an ECN mark while the
// probability is at most mark_ecnth, a drop otherwise (RFC 8033 §5.1). It
// reports whether p was dropped.
func (v *pieVars) early(now time.Duration, p *packet.Packet, sig *signal) bool {
	if v.dropProb <= pieMarkECNth {
		return sig.congest(now, p)
	}
	sig.dropAQM(now, p)
	return true
}

// PIE is the PIE AQM (RFC 8033) on a single FIFO.
type PIE struct {
	signal
	params pieParams
	vars   pieVars
	rng    *rand.Rand
	limit  link.QueueLimit
	q      packet.FIFO
}

var _ link.Queue = (*PIE)(nil)

// NewPIE returns a PIE queue with RFC 8033's defaults for target and
// tupdate when given PIETarget and PIETupdate.
func NewPIE(target, tupdate time.Duration, alpha, beta float64, maxBurst time.Duration, limit link.QueueLimit, ecn bool, rng *rand.Rand, drop link.DropFunc) *PIE {
	pr := pieParams{qdelayRef: target, tUpdate: tupdate, alpha: alpha, beta: beta, maxBurst: maxBurst}
	return &PIE{signal: signal{ecn: ecn, drop: drop}, params: pr, vars: newPIEVars(&pr, 0), rng: rng, limit: limit}
}

// Enqueue is RFC 8033 §5.1: tail drop when full, else a random early drop
// (or mark) with probability drop_prob_.
func (q *PIE) Enqueue(now time.Duration, p *packet.Packet) {
	q.vars.catchUp(now, &q.params)
	if q.limit.Full(q.q.Len(), q.q.Bytes(), p.Size) {
		q.drop(now, p, link.DropTail)
		return
	}
	if q.vars.dropEarly(&q.params, q.q.Bytes(), q.rng) && q.vars.early(now, p, &q.signal) {
		return
	}
	p.EnqueuedAt = now
	q.q.Push(p)
}

// Dequeue pops the head and updates the delay estimate.
func (q *PIE) Dequeue(now time.Duration) *packet.Packet {
	q.vars.catchUp(now, &q.params)
	p := q.q.Pop()
	if p != nil {
		q.vars.dequeued(now, p, q.q.Len())
	}
	return p
}

// Len returns the packets queued.
func (q *PIE) Len() int { return q.q.Len() }

// Bytes returns the bytes queued.
func (q *PIE) Bytes() int { return q.q.Bytes() }

// DropProb returns drop_prob_ (for tests and traces).
func (q *PIE) DropProb() float64 { return q.vars.dropProb }
