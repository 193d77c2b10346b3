package qdisc

import (
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// fqCase builds a flow-queueing discipline for the shared FQ tests.
type fqCase struct {
	name string
	mk   func(drop link.DropFunc) link.Queue
	// roundRobin: one list, no priority for sparse flows (SFQ), so a
	// sparse packet may wait a whole DRR round.
	roundRobin bool
}

func fqCases() []fqCase {
	return []fqCase{
		{"fq_codel", func(drop link.DropFunc) link.Queue {
			return NewFQCoDel(FQCoDelFlows, FQCoDelQuantum, CoDelTarget, CoDelInterval, link.QueueLimit{Packets: FQCoDelLimit}, false, rng(7), drop)
		}, false},
		{"fq_pie", func(drop link.DropFunc) link.Queue {
			return NewFQPIE(FQPIEFlows, FQPIEQuantum, PIETarget, PIETupdate, PIEAlpha, PIEBeta, PIEMaxBurst, link.QueueLimit{Packets: FQPIELimit}, false, rng(7), drop)
		}, false},
		{"cake", func(drop link.DropFunc) link.Queue {
			return NewCake(rate12, link.QueueLimit{Packets: CakeLimit}, false, rng(7), drop)
		}, false},
		{"sfq", func(drop link.DropFunc) link.Queue {
			return NewSFQ(SFQFlows, SFQQuantum, SFQPerturb, link.QueueLimit{Packets: SFQLimit}, rng(7), drop)
		}, true},
	}
}

// TestFQSparseFlow: a sparse flow (200-byte packets every 20 ms) next to
// four bulk flows, each offering the whole link. RFC 8290 §4.2 serves a
// flow that arrives empty from new_flows, ahead of every bulk flow, so its
// packet waits at most for the packet on the wire: its one-way delay is at
// most one MTU's serialisation plus its own. Its interarrival (20 ms) is
// longer than a DRR round of the bulk flows (4 × 1514 B at 12 Mbit/s ≈
// 4 ms), so it has left the lists before its next packet and is new again.
// SFQ has no new list: its bound is a round of the bulk flows.
func TestFQSparseFlow(t *testing.T) {
	for _, c := range fqCases() {
		t.Run(c.name, func(t *testing.T) {
			srcs := []*source{cbr(0, 200, 200*8/0.020)}
			for i := 1; i <= 4; i++ {
				srcs = append(srcs, cbr(i, 1500, rate12))
			}
			b := newBench(t, rate12, c.mk, srcs...)
			b.run(20 * time.Second)
			bound := txTime(packet.MTU, rate12) + txTime(200, rate12)
			if c.roundRobin {
				// A whole round of the four bulk flows; a flow's turn ends
				// once its deficit (at most a quantum) is spent, so it may
				// send up to a quantum plus one MTU.
				bound = 4*txTime(SFQQuantum+packet.MTU, rate12) + txTime(200, rate12)
			}
			mx, mn := maxOf(srcs[0].delays), mean(srcs[0].delays)
			bulk := mean(srcs[1].delays)
			t.Logf("%s: sparse delay mean %v max %v (bound %v); bulk mean %v", c.name, mn, mx, bound, bulk)
			if mx > bound {
				t.Errorf("sparse flow's max delay %v > %v", mx, bound)
			}
			if len(srcs[0].delays) < 990 {
				t.Errorf("sparse flow delivered %d of 1000 packets", len(srcs[0].delays))
			}
		})
	}
}

// TestFQBulkFairness: four unresponsive bulk flows of different packet
// sizes each offer half the link; DRR is byte-fair (Shreedhar & Varghese
// 1995: each flow gets its quantum per round), so each gets a quarter of
// the link and Jain's index is >= 0.99.
func TestFQBulkFairness(t *testing.T) {
	for _, c := range fqCases() {
		t.Run(c.name, func(t *testing.T) {
			var srcs []*source
			for i, size := range []int{1500, 1000, 576, 1500} {
				srcs = append(srcs, cbr(i, size, rate12/2))
			}
			b := newBench(t, rate12, c.mk, srcs...)
			b.run(30 * time.Second)
			var x []float64
			for _, s := range srcs {
				x = append(x, float64(s.delivered))
			}
			j := jain(x)
			t.Logf("%s: delivered %v bytes, Jain %.5f", c.name, x, j)
			if j < 0.99 {
				t.Errorf("Jain %.4f < 0.99", j)
			}
		})
	}
}

// TestFQMaxMinUnequalDemands: max–min fairness, not just equal shares.
// One unresponsive flow offers an eighth of the link and three offer half
// each; the max–min allocation (progressive filling) gives the small flow
// all it asks and the three others a third of the rest each, 7/24 of the
// link. Each flow's delivered rate within 2 % of its share (the DRR
// rounding of one quantum per flow per round is ~0.1 % over 30 s), and
// Jain's index over rate/share ≥ 0.99.
func TestFQMaxMinUnequalDemands(t *testing.T) {
	const dur = 30 * time.Second
	share := []float64{rate12 / 8, rate12 * 7 / 24, rate12 * 7 / 24, rate12 * 7 / 24}
	for _, c := range fqCases() {
		t.Run(c.name, func(t *testing.T) {
			srcs := []*source{cbr(0, 1500, rate12/8)}
			for i := 1; i <= 3; i++ {
				srcs = append(srcs, cbr(i, 1500, rate12/2))
			}
			b := newBench(t, rate12, c.mk, srcs...)
			b.run(dur)
			var norm []float64
			for i, s := range srcs {
				got := float64(s.delivered*8) / dur.Seconds()
				norm = append(norm, got/share[i])
				if d := got/share[i] - 1; d < -0.02 || d > 0.02 {
					t.Errorf("flow %d: %.3f Mbit/s, max–min share %.3f (±2 %%)", i, got/1e6, share[i]/1e6)
				}
			}
			j := jain(norm)
			t.Logf("%s: rate/share %.4f, Jain %.5f", c.name, norm, j)
			if j < 0.99 {
				t.Errorf("Jain over rate/share %.4f < 0.99", j)
			}
		})
	}
}
