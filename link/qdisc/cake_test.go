package qdisc

import (
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// TestCakeHostIsolation: host 1 runs one bulk flow, host 2 three, all
// unresponsive and each offering the whole link. CAKE divides each flow's
// quantum by its host's bulk flow count, so the two hosts get half the
// link each (Høiland-Jørgensen et al. 2018 §4.1): Jain over hosts ≥ 0.99,
// where per-flow fairness alone would give host 2 three quarters.
func TestCakeHostIsolation(t *testing.T) {
	srcs := []*source{cbr(0, 1500, rate12)}
	for i := 1; i <= 3; i++ {
		srcs = append(srcs, cbr(i, 1500, rate12))
	}
	b := newBench(t, rate12, func(drop link.DropFunc) link.Queue {
		return NewCake(rate12, link.QueueLimit{Packets: CakeLimit}, false, rng(7), drop)
	}, srcs...)
	b.hostOf = func(f packet.FlowID) uint32 {
		if f == 0 {
			return 1
		}
		return 2
	}
	b.run(30 * time.Second)
	h1 := float64(srcs[0].delivered)
	h2 := float64(srcs[1].delivered + srcs[2].delivered + srcs[3].delivered)
	j := jain([]float64{h1, h2})
	t.Logf("cake hosts: %.0f vs %.0f bytes, Jain %.4f", h1, h2, j)
	if j < 0.99 {
		t.Errorf("host Jain %.4f < 0.99", j)
	}
}

// TestCakeECN: with ECN on, COBALT marks ECN-capable packets instead of
// dropping them; BLUE (overflow) still drops.
func TestCakeECN(t *testing.T) {
	s := aimd(0, 20*time.Millisecond)
	s.ect = true
	var q *Cake
	b := newBench(t, rate12, func(drop link.DropFunc) link.Queue {
		q = NewCake(rate12, link.QueueLimit{Packets: CakeLimit}, true, rng(7), drop)
		return q
	}, s)
	b.run(20 * time.Second)
	st := q.Stats()
	t.Logf("cake ECN: %d marks, %d AQM drops, %d drops", st.Marks, st.AQMDrops, b.drops)
	if st.Marks == 0 || b.drops != 0 {
		t.Errorf("marks %d, drops %d: want marks and no drops", st.Marks, b.drops)
	}
}
