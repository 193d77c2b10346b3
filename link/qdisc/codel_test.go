package qdisc

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// At 12 Mbit/s a 1500-byte packet takes exactly 1 ms, so service starts at
// whole milliseconds and every CoDel decision happens at one.
const rate12 = 12e6

// TestCoDelEntersAndLeavesDropState checks RFC 8289 §5.4-5.5 on a 2×
// overload: packet k arrives at k/2 ms and starts service at k ms, so its
// sojourn is k/2 ms and first reaches TARGET (5 ms) at 10 ms; the first
// drop comes INTERVAL later (110 ms), the next at drop_next =
// control_law(drop_next, count) = drop_next + INTERVAL/sqrt(count), each
// at the first service start at or after it. When the load stops the
// queue drains (CoDel keeps dropping while the sojourn stays above
// TARGET) and CoDel leaves drop state; it never drops a packet whose
// sojourn is below TARGET.
func TestCoDelEntersAndLeavesDropState(t *testing.T) {
	src := cbr(0, 1500, 2*rate12)
	src.until = 2 * time.Second
	var q *CoDel
	b := newBench(t, rate12, func(drop link.DropFunc) link.Queue {
		q = NewCoDel(CoDelTarget, CoDelInterval, link.QueueLimit{}, false, drop)
		return q
	}, src)
	var drops []time.Duration
	b.onDrop = func(now time.Duration, p *packet.Packet) {
		drops = append(drops, now)
		if s := now - p.EnqueuedAt; s < CoDelTarget {
			t.Errorf("drop at %v of a packet with sojourn %v < target", now, s)
		}
	}
	b.run(20 * time.Second)
	if len(drops) < 20 {
		t.Fatalf("%d drops, want a drop schedule", len(drops))
	}
	sched := 110 * time.Millisecond
	for k, d := range drops[:20] {
		if want := ceilMs(sched); d != want {
			t.Fatalf("drop %d at %v, want %v (schedule %v)", k+1, d, want, sched)
		}
		// Next: drop_next + INTERVAL/sqrt(count), count = k+1 after this drop.
		sched += time.Duration(float64(CoDelInterval) / math.Sqrt(float64(k+1)))
	}
	if q.Dropping() || q.Len() != 0 {
		t.Fatalf("after the load stopped: dropping=%v len=%d, want out of drop state and empty", q.Dropping(), q.Len())
	}
}

// TestCoDelHoldsTarget: four Reno-like flows (20 ms base RTT) share a
// 12 Mbit/s link. CoDel controls the standing queue, the minimum sojourn
// over each INTERVAL (RFC 8289 §3.2), to TARGET while keeping the link
// busy. The band [TARGET/2, 2·TARGET]: below TARGET by at most the queue
// one flow's halving drains (a quarter of the BDP plus the queue, ≈ 2.5
// ms here), above it by the growth while CoDel waits out INTERVAL before
// its next drop (AIMD adds N = 4 packets per 20 ms RTT; at the control
// law's steady spacing of ~INTERVAL/sqrt(count) ≪ INTERVAL that is a few
// packets, ≈ 1 ms each).
func TestCoDelHoldsTarget(t *testing.T) {
	var srcs []*source
	for i := range 4 {
		srcs = append(srcs, aimd(i, 20*time.Millisecond))
	}
	b := newBench(t, rate12, func(drop link.DropFunc) link.Queue {
		return NewCoDel(CoDelTarget, CoDelInterval, link.QueueLimit{Packets: CoDelLimit}, false, drop)
	}, srcs...)
	const dur, warm = 60 * time.Second, 10 * time.Second
	b.run(dur)
	mins, all, delivered := windowMins(srcs, warm, CoDelInterval, packet.MTU, rate12)
	med := median(mins)
	util := float64(delivered*8) / (rate12 * (dur - warm).Seconds())
	t.Logf("CoDel: median per-interval min sojourn %v, mean sojourn %v, utilisation %.3f, drops %d", med, mean(all), util, b.drops)
	if med < CoDelTarget/2 || med > 2*CoDelTarget {
		t.Errorf("median per-interval minimum sojourn %v, want near target %v", med, CoDelTarget)
	}
	if util < 0.95 {
		t.Errorf("utilisation %.3f, want >= 0.95 (CoDel keeps a standing queue of ~target)", util)
	}
}

// windowMins returns, after warm, each window's minimum queueing delay
// (one-way delay less the packet's own serialisation), every sample, and
// the bytes delivered.
func windowMins(srcs []*source, warm, win time.Duration, size int, rate float64) (mins, all []time.Duration, delivered int64) {
	byWin := map[int]time.Duration{}
	for _, s := range srcs {
		for i, d := range s.delays {
			at := s.departs[i]
			if at < warm {
				continue
			}
			delivered += int64(s.size)
			q := d - txTime(s.size, rate)
			all = append(all, q)
			w := int(at / win)
			if m, ok := byWin[w]; !ok || q < m {
				byWin[w] = q
			}
		}
	}
	for _, m := range byWin {
		mins = append(mins, m)
	}
	return mins, all, delivered
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func ceilMs(d time.Duration) time.Duration {
	return (d + time.Millisecond - 1) / time.Millisecond * time.Millisecond
}

// TestECNMarksInsteadOfDrops: an ECN-capable Reno-like flow through the
// marking AQMs with ECN on sees CE marks and no drops (RFC 3168 §5; RFC
// 8289 §5 and RFC 8290 §4.2 mark where they would drop; RFC 8033 §5.1
// marks while drop_prob ≤ 10%); with ECN off the same AQMs drop.
func TestECNMarksInsteadOfDrops(t *testing.T) {
	for _, name := range []string{"codel", "pie", "fq_codel", "fq_pie", "red", "ared", "cake"} {
		for _, ecn := range []bool{true, false} {
			s := aimd(0, 20*time.Millisecond)
			s.ect = true
			var q link.Queue
			b := newBench(t, rate12, func(drop link.DropFunc) link.Queue {
				var err error
				q, err = New(Config{Discipline: name, ECN: ecn, RateBps: rate12}, rng(5), drop)
				if err != nil {
					t.Fatal(err)
				}
				return q
			}, s)
			b.run(30 * time.Second)
			st := q.(interface{ Stats() Stats }).Stats()
			if ecn && (st.Marks == 0 || b.drops != 0) {
				t.Errorf("%s ecn on: %d marks, %d drops; want marks only", name, st.Marks, b.drops)
			}
			if !ecn && (st.Marks != 0 || st.AQMDrops == 0) {
				t.Errorf("%s ecn off: %d marks, %d AQM drops; want drops only", name, st.Marks, st.AQMDrops)
			}
		}
	}
}
