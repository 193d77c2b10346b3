package qdisc

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// RED defaults: Floyd & Jacobson, "Random Early Detection Gateways for
// Congestion Avoidance", IEEE/ACM ToN 1993, §6's simulations (min_th 5,
// max_th 15 packets, w_q 0.002, max_p 1/50).
const (
	REDMinTh = 5
	REDMaxTh = 15
	REDWq    = 0.002
	REDMaxP  = 0.02
	// REDLimit is the hard queue limit when none is given, packets (the
	// hard limit must be well above max_th; Linux tc-red asks for it
	// explicitly; we use sch_codel's 1000).
	REDLimit = 1000
)

// redParams are RED's configuration (Floyd & Jacobson 1993 §4).
type redParams struct {
	minTh, maxTh float64 // thresholds on the average queue, packets
	wq           float64 // queue weight of the EWMA
	maxP         float64 // drop probability at max_th
	gentle       bool    // p rises from max_p to 1 between max_th and 2·max_th (Floyd 2000; ARED)
	// s is the typical transmission time of a packet, for the average's
	// decay over an idle period (§4: m = f(time − q_time)).
	s time.Duration
}

// RED is Random Early Detection on a FIFO, with the count-based spreading
// of drops of Floyd & Jacobson 1993 §4 and §7.
type RED struct {
	signal
	params redParams
	limit  link.QueueLimit
	rng    *rand.Rand
	q      packet.FIFO

	avg   float64       // average queue size, packets
	count int           // packets since the last marked packet (−1: avg below min_th)
	qTime time.Duration // start of the queue's idle time
	idle  bool
	// adapt, when set, adapts max_p before each decision (ARED).
	adapt *aredState
}

var _ link.Queue = (*RED)(nil)

// NewRED returns a RED queue. rateBps sets the typical transmission time
// (an MTU at the link rate) for the idle decay.
func NewRED(minTh, maxTh, wq, maxP float64, gentle bool, rateBps float64, limit link.QueueLimit, ecn bool, rng *rand.Rand, drop link.DropFunc) *RED {
	return &RED{
		signal: signal{ecn: ecn, drop: drop},
		params: redParams{minTh: minTh, maxTh: maxTh, wq: wq, maxP: maxP, gentle: gentle, s: time.Duration(packet.MTU * 8 / rateBps * 1e9)},
		limit:  limit, rng: rng, count: -1, idle: true,
	}
}

// updateAvg is §4's average: an EWMA of the instantaneous queue on each
// arrival, decayed by (1−w_q)^m after an idle period of m packet times.
func (r *RED) updateAvg(now time.Duration) {
	if r.q.Len() > 0 || !r.idle {
		r.avg = (1-r.params.wq)*r.avg + r.params.wq*float64(r.q.Len())
		return
	}
	m := float64(now-r.qTime) / float64(max(1, r.params.s))
	r.avg *= math.Pow(1-r.params.wq, m)
	r.idle = false
}

// pb is the base drop probability for average queue avg (§4, with the
// gentle extension above max_th).
func (pr *redParams) pb(avg float64) float64 {
	switch {
	case avg < pr.minTh:
		return 0
	case avg < pr.maxTh:
		return pr.maxP * (avg - pr.minTh) / (pr.maxTh - pr.minTh)
	case pr.gentle && avg < 2*pr.maxTh:
		return pr.maxP + (1-pr.maxP)*(avg-pr.maxTh)/pr.maxTh
	}
	return 1
}

// Enqueue is §4's per-arrival algorithm.
func (r *RED) Enqueue(now time.Duration, p *packet.Packet) {
	if r.adapt != nil {
		r.adapt.tick(now, r)
	}
	r.updateAvg(now)
	if r.limit.Full(r.q.Len(), r.q.Bytes(), p.Size) {
		r.drop(now, p, link.DropTail)
		return
	}
	if r.avg >= r.params.minTh {
		pb := r.params.pb(r.avg)
		// §7: p_a = p_b / (1 − count·p_b) with count the unmarked arrivals
		// since the last mark, so the gap between marks is uniform on
		// {1, …, 1/p_b}. (Fig. 2 increments count first, one more.)
		r.count = max(r.count, 0)
		pa := 1.0
		if pb < 1 {
			pa = pb / max(1e-12, 1-float64(r.count)*pb)
		}
		if pa >= 1 || r.rng.Float64() < pa {
			r.count = 0
			if r.congest(now, p) {
				return
			}
		} else {
			r.count++
		}
	} else {
		r.count = -1
	}
	p.EnqueuedAt = now
	r.q.Push(p)
}

// Dequeue pops the head; an emptied queue starts its idle time.
func (r *RED) Dequeue(now time.Duration) *packet.Packet {
	p := r.q.Pop()
	if p != nil && r.q.Len() == 0 {
		r.qTime, r.idle = now, true
	}
	return p
}

// Len returns the packets queued.
func (r *RED) Len() int { return r.q.Len() }

// Bytes returns the bytes queued.
func (r *RED) Bytes() int { return r.q.Bytes() }

// Avg returns the average queue, packets.
func (r *RED) Avg() float64 { return r.avg }

// MaxP returns the current max_p.
func (r *RED) MaxP() float64 { return r.params.maxP }
