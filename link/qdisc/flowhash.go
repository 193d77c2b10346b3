package qdisc

import (
	"math/rand/v2"

	"github.com/leolab/leolab/packet"
)

// hasher maps a packet's flow to one of n buckets with a keyed hash, as
// the Linux flow queueing qdiscs do (a random perturbation seed drawn at
// setup: sch_fq_codel's q->perturbation, sch_sfq's perturbation). With
// ways > 1 the lookup is set-associative (sch_cake's CAKE_SET_WAYS = 8):
// a flow takes a free or its own way in its set before colliding.
type hasher struct {
	n    int
	ways int
	seed uint64
}

func newHasher(n, ways int, rng *rand.Rand) hasher {
	return hasher{n: n, ways: ways, seed: rng.Uint64()}
}

// key is what the hash distinguishes: the flow id (the 5-tuple's stand-in
// in sim; emu's classifier numbers 5-tuples).
func key(p *packet.Packet) uint64 { return uint64(p.Flow) }

// mix is SplitMix64's finaliser (Steele, Lea & Flood 2014), a fast
// avalanche over the key and seed.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// bucket returns k's bucket; flows supplies, for associativity, each
// bucket's current tag and whether it holds packets.
func (h *hasher) bucket(k uint64, flows []flow) int {
	i := int(mix(k^h.seed) % uint64(h.n))
	if h.ways <= 1 {
		return i
	}
	// sch_cake cake_hash: look for the flow's own way, then an empty one,
	// else share the hashed way.
	set := i - i%h.ways
	for w := range h.ways {
		if f := &flows[set+w]; f.tagged && f.tag == k {
			return set + w
		}
	}
	for w := range h.ways {
		if f := &flows[set+w]; f.q.Len() == 0 && f.list == listNone {
			return set + w
		}
	}
	return i
}
