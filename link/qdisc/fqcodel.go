package qdisc

import (
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// FQ-CoDel defaults (RFC 8290 §5; Linux net/sched/sch_fq_codel.c).
const (
	FQCoDelFlows   = 1024  // RFC 8290 §5.1 and sch_fq_codel flows_cnt
	FQCoDelQuantum = 1514  // RFC 8290 §5.1: an MTU plus the Ethernet header
	FQCoDelLimit   = 10240 // sch_fq_codel's default limit, packets (RFC 8290 §5.1)
)

// FQCoDel is FlowQueue-CoDel (RFC 8290): flows hashed into buckets, each
// with its own CoDel, served by DRR with new/old flow lists.
type FQCoDel struct {
	signal
	params codelParams
	drr    drr
	vars   []codelVars // per flow
	hash   hasher
	limit  link.QueueLimit
}

var _ link.Queue = (*FQCoDel)(nil)

// NewFQCoDel returns an FQ-CoDel queue of flows buckets.
func NewFQCoDel(flows, quantum int, target, interval time.Duration, limit link.QueueLimit, ecn bool, rng *rand.Rand, drop link.DropFunc) *FQCoDel {
	return &FQCoDel{
		signal: signal{ecn: ecn, drop: drop},
		params: codelParams{target, interval},
		drr:    newDRR(flows, quantum, true),
		vars:   make([]codelVars, flows),
		hash:   newHasher(flows, 1, rng),
		limit:  limit,
	}
}

// Enqueue is RFC 8290 §4.1: timestamp, classify, append; on overflow drop
// from the head of the fattest flow.
func (q *FQCoDel) Enqueue(now time.Duration, p *packet.Packet) {
	p.EnqueuedAt = now
	k := key(p)
	q.drr.push(q.hash.bucket(k, q.drr.flows), k, p)
	for q.over() {
		_, victim := q.drr.dropFattest()
		q.drop(now, victim, link.DropHead)
	}
}

func (q *FQCoDel) over() bool {
	t := q.drr.total
	return (q.limit.Packets > 0 && t.n > q.limit.Packets) || (q.limit.Bytes > 0 && t.bytes > q.limit.Bytes)
}

// Dequeue is RFC 8290 §4.2: DRR over new then old flows, CoDel on the
// chosen flow's queue.
func (q *FQCoDel) Dequeue(now time.Duration) *packet.Packet {
	for {
		i := q.drr.head()
		if i < 0 {
			return nil
		}
		p := q.vars[i].dequeue(now, &q.params, q.drr.counted(i), &q.signal)
		if p == nil {
			q.drr.emptied(i)
			continue
		}
		q.drr.charge(i, p)
		return p
	}
}

// Len returns the packets queued.
func (q *FQCoDel) Len() int { return q.drr.total.n }

// Bytes returns the bytes queued.
func (q *FQCoDel) Bytes() int { return q.drr.total.bytes }
