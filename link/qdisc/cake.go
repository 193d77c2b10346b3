package qdisc

import (
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// CAKE defaults (Linux net/sched/sch_cake.c).
const (
	CakeFlows = 1024  // CAKE_QUEUES
	CakeWays  = 8     // CAKE_SET_WAYS: set-associative flow hashing
	CakeLimit = 10240 // sch->limit, packets
	// Flow quantum: cake_reconfigure sets rate_bytes_per_sec >> 12,
	// clamped to [300, 1514] bytes.
	cakeQuantumMin, cakeQuantumMax = 300, 1514
)

// Cake is CAKE's flow isolation and AQM (Høiland-Jørgensen, Taht & Morton,
// "Piece of CAKE", LANMAN 2018, §4): set-associative hashing of flows into
// queues, DRR with sparse (new) and bulk (old) flow lists as FQ-CoDel,
// COBALT per flow, and host isolation: each flow's quantum is divided by
// the number of bulk flows of its host, so hosts share the link fairly
// whatever their flow counts (the paper's §4.1 "dual" modes; packets name
// their host in packet.Host, the source address in emu). It leaves out
// CAKE's shaper (the Server is the shaper), its Diffserv tins, ACK
// filtering and overhead compensation.
type Cake struct {
	signal
	params   cobaltParams
	drr      drr
	vars     []cobaltVars
	host     []uint32 // each flow queue's host
	hostBulk []int    // bulk flows per host bucket
	bulk     int      // bulk flows in all
	hash     hasher
	rng      *rand.Rand
	limit    link.QueueLimit
	flowQ    int
}

var _ link.Queue = (*Cake)(nil)

// NewCake returns a CAKE queue for a link of rateBps.
func NewCake(rateBps float64, limit link.QueueLimit, ecn bool, rng *rand.Rand, drop link.DropFunc) *Cake {
	fq := min(max(int(rateBps/8)>>12, cakeQuantumMin), cakeQuantumMax)
	c := &Cake{
		signal:   signal{ecn: ecn, drop: drop},
		params:   cobaltParams{target: CakeTarget, interval: CakeInterval, mtuTime: time.Duration(float64(packet.MTU*8) / rateBps * 1e9)},
		drr:      newDRR(CakeFlows, fq, true),
		vars:     make([]cobaltVars, CakeFlows),
		host:     make([]uint32, CakeFlows),
		hostBulk: make([]int, CakeFlows),
		hash:     newHasher(CakeFlows, CakeWays, rng),
		rng:      rng,
		limit:    limit,
		flowQ:    fq,
	}
	c.drr.quantumOf = c.quantumOf
	c.drr.onOld = c.onOld
	return c
}

func (c *Cake) hostBucket(i int32) int {
	return int(mix(uint64(c.host[i])^c.hash.seed) % uint64(len(c.hostBulk)))
}

// quantumOf is cake_dequeue's host fairness: flow_quantum scaled by
// 1/host_load, host_load being the host's bulk flow count.
func (c *Cake) quantumOf(i int32) int {
	load := max(1, c.hostBulk[c.hostBucket(i)])
	return max(1, c.flowQ/load)
}

func (c *Cake) onOld(i int32, delta int) {
	c.hostBulk[c.hostBucket(i)] += delta
	c.bulk += delta
}

// Enqueue classifies p; on overflow the fattest flow loses its head packet
// and its BLUE is told (cake_drop → cobalt_queue_full).
func (c *Cake) Enqueue(now time.Duration, p *packet.Packet) {
	p.EnqueuedAt = now
	k := key(p)
	i := c.hash.bucket(k, c.drr.flows)
	if f := &c.drr.flows[i]; f.list == listNone {
		c.host[i] = p.Host
	}
	c.drr.push(i, k, p)
	t := &c.drr.total
	for (c.limit.Packets > 0 && t.n > c.limit.Packets) || (c.limit.Bytes > 0 && t.bytes > c.limit.Bytes) {
		j, victim := c.drr.dropFattest()
		c.vars[j].queueFull(now, &c.params)
		c.drop(now, victim, link.DropHead)
	}
}

// Dequeue is cake_dequeue's flow selection with COBALT on the chosen flow.
func (c *Cake) Dequeue(now time.Duration) *packet.Packet {
	for {
		i := c.drr.head()
		if i < 0 {
			return nil
		}
		p := c.drr.pop(i)
		if p == nil {
			c.vars[i].queueEmpty(now, &c.params)
			c.drr.emptied(i)
			continue
		}
		v := c.vars[i].shouldDrop(now, &c.params, p, c.bulk, c.rng)
		// "Last packet in queue may be marked, shouldn't be dropped."
		last := c.drr.flows[i].q.Len() == 0
		switch {
		case v == keep:
		case last:
			if v == codelSignal && c.ecn && p.ECT {
				p.CE = true
				c.marks++
			}
		case v == codelSignal && !c.congest(now, p): // marked, delivered
		default: // dropped (by congest above, or BLUE here): not served
			if v == blueDrop {
				c.dropAQM(now, p)
			}
			c.drr.flows[i].deficit += p.Size
			continue
		}
		return p
	}
}

// Len returns the packets queued.
func (c *Cake) Len() int { return c.drr.total.n }

// Bytes returns the bytes queued.
func (c *Cake) Bytes() int { return c.drr.total.bytes }
