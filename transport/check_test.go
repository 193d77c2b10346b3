package transport

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
)

// TestPropertyRandomLossReorder runs transfers through random data and ACK
// loss and reordering jitter and checks the sender's invariants after every
// event (scoreboard sorted and disjoint, pipe >= 0, accounting consistent)
// and that every byte arrives exactly once in order.
func TestPropertyRandomLossReorder(t *testing.T) {
	for _, tc := range []struct {
		loss, ackLoss float64
		jitter        time.Duration
		noRACK        bool
		rate          float64
	}{
		{0.02, 0, 0, false, 0},
		{0.05, 0.05, 3 * time.Millisecond, false, 0},
		{0.01, 0.2, 8 * time.Millisecond, false, mbps(30)},
		{0.03, 0.02, 2 * time.Millisecond, true, 0},
		{0.15, 0.1, 5 * time.Millisecond, false, 0},
	} {
		for seed := uint64(1); seed <= 4; seed++ {
			name := fmt.Sprintf("loss%.2f-ack%.2f-jit%v-norack%v-paced%v/seed%d", tc.loss, tc.ackLoss, tc.jitter, tc.noRACK, tc.rate > 0, seed)
			t.Run(name, func(t *testing.T) {
				rng := sim.Stream(seed, name)
				ctrl := &fixedCC{cwnd: 30 * mss, rate: tc.rate}
				const n = 600*mss + 77
				p := newPath(t, SenderConfig{Bytes: n, NoRACK: tc.noRACK}, ctrl, mbps(40), 10*time.Millisecond, 10*time.Millisecond)
				p.check = true
				p.dropData = func(time.Duration, *packet.Packet) bool { return rng.Float64() < tc.loss }
				p.dropAck = func(time.Duration, *packet.Packet) bool { return rng.Float64() < tc.ackLoss }
				if tc.jitter > 0 {
					p.jitter = func() time.Duration { return time.Duration(rng.Int64N(int64(tc.jitter))) }
				}
				p.run(120 * time.Second)
				st, rst := p.snd.Stats(), p.rcv.Stats()
				if !st.Done || rst.BytesReceived != n {
					t.Fatalf("done %v, received %d of %d (RTOs %d, retrans %d)", st.Done, rst.BytesReceived, n, st.RTOs, st.Retransmits)
				}
				t.Logf("done at %v: retrans %d, RTOs %d, TLPs %d, dup segs %d, segs %d, episodes %d", p.doneAt, st.Retransmits, st.RTOs, st.TLPs, rst.DupSegments, rst.Segments, len(ctrl.episodes))
				if st.Inflight != 0 || p.pool.Outstanding != 0 {
					t.Errorf("after completion: inflight %d, packets outstanding %d", st.Inflight, p.pool.Outstanding)
				}
				// Every retransmission repairs a loss or is spurious; with
				// loss rate p the retransmissions cannot be below the drops.
				if st.BytesSent < n {
					t.Errorf("sent %d < %d", st.BytesSent, n)
				}
			})
		}
	}
}

// TestRetransmissionsMatchDropsWithoutReordering: on a path that only drops
// (no reordering, no ACK loss), RACK never retransmits spuriously, so the
// retransmissions equal the drops.
func TestRetransmissionsMatchDropsWithoutReordering(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	ctrl := &fixedCC{cwnd: 30 * mss}
	drops := 0
	p := newPath(t, SenderConfig{Bytes: 3000 * mss}, ctrl, mbps(40), 10*time.Millisecond, 10*time.Millisecond)
	p.dropData = func(time.Duration, *packet.Packet) bool {
		if rng.Float64() < 0.01 {
			drops++
			return true
		}
		return false
	}
	p.check = true
	p.run(60 * time.Second)
	st := p.snd.Stats()
	if !st.Done {
		t.Fatal("not done")
	}
	if st.Retransmits != int64(drops) {
		t.Errorf("retransmits %d, drops %d (RTOs %d, TLPs %d)", st.Retransmits, drops, st.RTOs, st.TLPs)
	}
	if st.Retransmits != int64(ctrl.retrans) {
		t.Errorf("controller saw %d retransmissions, stats %d", ctrl.retrans, st.Retransmits)
	}
}
