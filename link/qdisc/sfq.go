package qdisc

import (
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// SFQ defaults (McKenney, "Stochastic Fairness Queueing", INFOCOM 1990;
// Linux net/sched/sch_sfq.c).
const (
	SFQFlows   = 1024 // SFQ_DEFAULT_HASH_DIVISOR
	SFQQuantum = 1514 // psched_mtu of an Ethernet device
	SFQLimit   = 127  // SFQ_MAX_DEPTH: the default limit, packets
	// SFQPerturb is sch_sfq's default perturbation period: none (tc-sfq(8)
	// advises 60 s when enabled; McKenney's §3 re-keys the hash
	// periodically so that colliding flows do not stay colliding).
	SFQPerturb = time.Duration(0)
)

// SFQ is Stochastic Fairness Queueing: flows hashed into buckets served
// round robin by quantum (one list, no sparse-flow priority), with the
// hash re-keyed every perturb. On overflow the fattest bucket loses its
// head packet (sch_sfq's headdrop mode; by default Linux drops that
// bucket's tail).
type SFQ struct {
	limit   link.QueueLimit
	drop    link.DropFunc
	drr     drr
	hash    hasher
	rng     *rand.Rand
	perturb time.Duration
	next    time.Duration // next re-keying
}

var _ link.Queue = (*SFQ)(nil)

// NewSFQ returns an SFQ queue; perturb 0 never re-keys.
func NewSFQ(flows, quantum int, perturb time.Duration, limit link.QueueLimit, rng *rand.Rand, drop link.DropFunc) *SFQ {
	return &SFQ{limit: limit, drop: drop, drr: newDRR(flows, quantum, false), hash: newHasher(flows, 1, rng), rng: rng, perturb: perturb, next: perturb}
}

// Enqueue hashes p to its bucket (re-keying first when the perturbation
// period has passed; packets already queued stay where they are, so a
// re-keying may reorder a flow) and drops from the fattest bucket when
// over the limit.
func (s *SFQ) Enqueue(now time.Duration, p *packet.Packet) {
	if s.perturb > 0 && now >= s.next {
		s.hash.seed = s.rng.Uint64()
		s.next = now - (now-s.next)%s.perturb + s.perturb
	}
	p.EnqueuedAt = now
	k := key(p)
	s.drr.push(s.hash.bucket(k, s.drr.flows), k, p)
	t := &s.drr.total
	for (s.limit.Packets > 0 && t.n > s.limit.Packets) || (s.limit.Bytes > 0 && t.bytes > s.limit.Bytes) {
		_, victim := s.drr.dropFattest()
		s.drop(now, victim, link.DropHead)
	}
}

// Dequeue serves the buckets round robin by deficit.
func (s *SFQ) Dequeue(time.Duration) *packet.Packet {
	for {
		i := s.drr.head()
		if i < 0 {
			return nil
		}
		if p := s.drr.pop(i); p != nil {
			return p
		}
		s.drr.emptied(i)
	}
}

// Len returns the packets queued.
func (s *SFQ) Len() int { return s.drr.total.n }

// Bytes returns the bytes queued.
func (s *SFQ) Bytes() int { return s.drr.total.bytes }
