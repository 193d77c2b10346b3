package qdisc

import (
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// FQ-PIE defaults (Linux net/sched/sch_fq_pie.c, fq_pie_init; Ramakrishnan
// et al., "FQ-PIE Queue Discipline in the Linux Kernel", 2020).
const (
	FQPIEFlows   = 1024  // flows_cnt
	FQPIELimit   = 10240 // sch->limit, packets
	FQPIEQuantum = 1514  // psched_mtu of an Ethernet device
)

// FQPIE is FlowQueue-PIE: RFC 8290's flow queueing and DRR with PIE
// (RFC 8033) run per flow, its drop decision at enqueue on the flow's own
// backlog, as sch_fq_pie does.
type FQPIE struct {
	signal
	params pieParams
	drr    drr
	vars   []pieVars
	hash   hasher
	rng    *rand.Rand
	limit  link.QueueLimit
}

var _ link.Queue = (*FQPIE)(nil)

// NewFQPIE returns an FQ-PIE queue.
func NewFQPIE(flows, quantum int, target, tupdate time.Duration, alpha, beta float64, maxBurst time.Duration, limit link.QueueLimit, ecn bool, rng *rand.Rand, drop link.DropFunc) *FQPIE {
	q := &FQPIE{
		signal: signal{ecn: ecn, drop: drop},
		params: pieParams{qdelayRef: target, tUpdate: tupdate, alpha: alpha, beta: beta, maxBurst: maxBurst},
		drr:    newDRR(flows, quantum, true),
		vars:   make([]pieVars, flows),
		hash:   newHasher(flows, 1, rng),
		rng:    rng,
		limit:  limit,
	}
	for i := range q.vars {
		q.vars[i] = newPIEVars(&q.params, 0)
	}
	return q
}

// Enqueue: tail drop when the qdisc is full (fq_pie_qdisc_enqueue), else
// the flow's PIE decides on an early drop or mark.
func (q *FQPIE) Enqueue(now time.Duration, p *packet.Packet) {
	k := key(p)
	i := q.hash.bucket(k, q.drr.flows)
	v := &q.vars[i]
	v.catchUp(now, &q.params)
	t := q.drr.total
	if q.limit.Full(t.n, t.bytes, p.Size) {
		q.drop(now, p, link.DropTail)
		return
	}
	if v.dropEarly(&q.params, q.drr.flows[i].q.Bytes(), q.rng) && v.early(now, p, &q.signal) {
		return
	}
	p.EnqueuedAt = now
	q.drr.push(i, k, p)
}

// Dequeue is RFC 8290 §4.2's DRR; the flow's PIE sees the departure.
func (q *FQPIE) Dequeue(now time.Duration) *packet.Packet {
	for {
		i := q.drr.head()
		if i < 0 {
			return nil
		}
		q.vars[i].catchUp(now, &q.params)
		if p := q.drr.pop(i); p != nil {
			q.vars[i].dequeued(now, p, q.drr.flows[i].q.Len())
			return p
		}
		q.drr.emptied(i)
	}
}

// Len returns the packets queued.
func (q *FQPIE) Len() int { return q.drr.total.n }

// Bytes returns the bytes queued.
func (q *FQPIE) Bytes() int { return q.drr.total.bytes }
