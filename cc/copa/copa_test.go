package copa

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
)

const mss = 1448

// TestRegistered: "copa" defaults to δ = 0.5 with mode switching and
// refuses δ outside (0, 1] and a non-binary mode_switch.
func TestRegistered(t *testing.T) {
	cctest.Registered(t, "copa", map[string]float64{"delta": 0.5, "mode_switch": 1},
		map[string]float64{"delta": 0}, map[string]float64{"delta": 2}, map[string]float64{"mode_switch": 0.5})
}

// primed returns a Copa out of slow start whose filters hold RTT_min = min
// and RTT_standing = standing, with the given window.
func primed(cwnd float64, min, standing time.Duration) *Copa {
	c := newCopa(mss, 10, 0.5, false)
	c.slowStart = false
	c.cwnd = cwnd
	c.rttMin.reset(0, min)
	c.standing.reset(0, standing)
	c.srtt = standing
	c.roundStart = 1 << 40 // no round ends
	return c
}

// The per-ACK rule of §2.1 worked by hand: dq = 1 ms, δ = 0.5, so λt =
// 2000 packets/s. cwnd 100 at RTT_standing 61 ms is 1639 packets/s, below
// the target, so each ACK adds v/(δ·cwnd) = 0.02; cwnd 150 is 2459
// packets/s, above it, so each ACK removes 1/75.
func TestSteer(t *testing.T) {
	for _, tc := range []struct {
		cwnd, want float64
	}{
		{100, 100 + 1/(0.5*100)},
		{150, 150 - 1/(0.5*150)},
	} {
		c := primed(tc.cwnd, 60*time.Millisecond, 61*time.Millisecond)
		if got := c.targetRate(); math.Abs(got-2000) > 1e-6 {
			t.Fatalf("target rate %v packets/s, want 2000", got)
		}
		c.steer(1)
		if math.Abs(c.cwnd-tc.want) > 1e-9 {
			t.Errorf("cwnd %v → %v, want %v", tc.cwnd, c.cwnd, tc.want)
		}
	}
	// Pacing: 2·cwnd/RTT_standing.
	c := primed(100, 60*time.Millisecond, 61*time.Millisecond)
	if got, want := c.PacingRate(), 2*100*mss/0.061; math.Abs(got-want) > 1e-6 {
		t.Errorf("pacing %v B/s, want %v", got, want)
	}
}

// Slow start grows by one packet per ACKed packet while the rate is below
// target and leaves at the first ACK above it.
func TestSlowStart(t *testing.T) {
	c := newCopa(mss, 10, 0.5, false)
	c.rttMin.reset(0, 60*time.Millisecond)
	c.standing.reset(0, 60*time.Millisecond) // dq = 0: target infinite
	c.roundStart = 1 << 40
	c.steer(2)
	if c.cwnd != 12 || !c.slowStart {
		t.Fatalf("slow start cwnd %v (want 12), slowStart %v", c.cwnd, c.slowStart)
	}
	c.standing.reset(0, 70*time.Millisecond) // λt = 200/s; 12/0.07 s = 171/s is below it
	c.steer(1)
	if !c.slowStart || c.cwnd != 13 {
		t.Fatalf("left slow start early: cwnd %v", c.cwnd)
	}
	c.standing.reset(0, 62*time.Millisecond) // λt = 1000/s
	c.cwnd = 100                             // 100/0.062 s = 1613/s: above the target
	c.steer(1)
	if c.slowStart || c.cwnd >= 100 {
		t.Fatalf("did not leave slow start above target: cwnd %v slowStart %v", c.cwnd, c.slowStart)
	}
}

// The velocity doubles once the window has moved in the same direction for
// three rounds, and resets to 1 when the direction changes (§2.1).
func TestVelocity(t *testing.T) {
	c := primed(100, 60*time.Millisecond, 60*time.Millisecond)
	want := []float64{1, 1, 1, 2, 4, 8}
	for i, w := range want {
		c.cwnd++ // the window went up in this round
		c.endRound(int64(i))
		if c.v != w {
			t.Fatalf("round %d: velocity %v, want %v", i, c.v, w)
		}
	}
	c.cwnd -= 10
	c.endRound(99)
	if c.v != 1 {
		t.Fatalf("velocity %v after a direction change, want 1", c.v)
	}
}

// ackStream feeds ACKs every millisecond from t0 to t1 with RTT rtt(t),
// rounds ending every 100 ms, and marks loss on the ACKs for which lost
// returns true.
func ackStream(c *Copa, t0, t1 time.Duration, rtt func(time.Duration) time.Duration, lost func(time.Duration) bool) {
	const round = 100 * time.Millisecond
	for now := t0; now < t1; now += time.Millisecond {
		r := rtt(now)
		rs := cc.RateSample{RTT: r, SRTT: r, AckedPackets: 1, AckedBytes: mss,
			PriorDelivered: int64(now / round), TotalDelivered: int64(now/round) + 1}
		if lost != nil && lost(now) {
			rs.LostPackets, rs.LostBytes = 1, mss
		}
		c.OnAck(now, &rs)
	}
}

// §2.2: a queue that never nearly empties within five RTTs means a
// buffer-filling competitor; Copa turns competitive and raises 1/δ by one
// per loss-free RTT, halves it on an RTT with loss, and returns to the
// default δ once the queue empties again.
func TestModeSwitch(t *testing.T) {
	c := newCopa(mss, 10, 0.5, true)
	c.slowStart = false
	empty := func(time.Duration) time.Duration { return 50 * time.Millisecond }
	ackStream(c, 0, time.Second, empty, nil)
	if c.competitive || c.delta != 0.5 {
		t.Fatalf("competitive %v delta %v on an empty queue", c.competitive, c.delta)
	}
	// A standing queue of 40–60 ms that never drains (sawtooth).
	full := func(now time.Duration) time.Duration {
		return 90*time.Millisecond + (now%(200*time.Millisecond))/10
	}
	ackStream(c, time.Second, 3*time.Second, full, nil)
	if !c.competitive {
		t.Fatalf("not competitive after 2 s of a queue that never empties: %v", c.Inspect())
	}
	// The queue is seen not to empty once the 0.5 s mode window has no
	// empty-queue sample left, so from ~1.5 s: ~15 rounds of +1 on 1/δ = 2.
	if inv := 1 / c.delta; inv < 12 || inv > 18 {
		t.Fatalf("1/δ = %.1f after ~15 loss-free rounds in competitive mode, want 2+15 ± 3", inv)
	}
	before := 1 / c.delta
	lostOnce := func(now time.Duration) bool { return now == 3050*time.Millisecond }
	ackStream(c, 3*time.Second, 3150*time.Millisecond, full, lostOnce) // one round with loss
	if after := 1 / c.delta; math.Abs(after-(before+1)/2) > 1e-9 {
		t.Fatalf("1/δ %.1f → %.1f over a round with a loss, want (%.1f+1)/2", before, after, before)
	}
	ackStream(c, 4*time.Second, 6*time.Second, empty, nil)
	if c.competitive || c.delta != 0.5 {
		t.Fatalf("competitive %v delta %v after the queue emptied", c.competitive, c.delta)
	}
}

func TestRTOResetsVelocity(t *testing.T) {
	c := primed(100, 60*time.Millisecond, 60*time.Millisecond)
	c.v, c.sameRounds = 8, 5
	c.OnRTO(0)
	if c.v != 1 || c.sameRounds != 0 || c.cwnd != 100 {
		t.Fatalf("after RTO v %v rounds %d cwnd %v, want 1, 0, unchanged 100", c.v, c.sameRounds, c.cwnd)
	}
}

// On a fixed link Copa alone keeps a standing queue near 1/δ packets. Its
// window moves 1/δ packets per RTT and reacts to RTT_standing about 1.5
// RTTs late (one RTT of feedback plus the srtt/2 filter), so the queue is
// a triangle from empty to about 2.5/δ: mean about 1.25/δ, never above
// ~3.5/δ, and empty once a cycle (what keeps Copa in default mode).
func TestStandingQueue(t *testing.T) {
	for _, tc := range []struct {
		delta, bps float64
	}{{0.5, 50e6}, {0.5, 200e6}, {0.25, 50e6}} {
		c, err := New(cc.Config{MSS: mss, InitialCWnd: 10, Params: map[string]float64{"delta": tc.delta}})
		if err != nil {
			t.Fatal(err)
		}
		p := cctest.NewPath(c, tc.bps, 60*time.Millisecond)
		p.Buffer = int(p.BDPPackets()) * p.MSS
		p.Run(20 * time.Second)
		p.ResetStats()
		minQ, maxQ := math.Inf(1), 0.0
		p.Observe = func(time.Duration, *cc.RateSample) {
			q := p.QueuePackets()
			minQ, maxQ = min(minQ, q), max(maxQ, q)
		}
		p.Run(50 * time.Second)
		q, u := p.MeanQueue(), p.Throughput()/p.Rate(0)
		t.Logf("δ %.2f, %.0f Mbit/s: mean queue %.2f pkts (1/δ = %.0f), range %.1f–%.1f, utilisation %.4f",
			tc.delta, tc.bps/1e6, q, 1/tc.delta, minQ, maxQ, u)
		if q < 0.75/tc.delta || q > 1.75/tc.delta {
			t.Errorf("mean queue %.2f packets, want 1.25/δ = %.2f ± 0.5/δ", q, 1.25/tc.delta)
		}
		if maxQ > 3.5/tc.delta || minQ > 0.5 {
			t.Errorf("queue range %.1f–%.1f, want from empty to at most 3.5/δ", minQ, maxQ)
		}
		if u < 0.97 {
			t.Errorf("utilisation %.4f < 0.97", u)
		}
		if c.competitive {
			t.Errorf("competitive mode with no competitor")
		}
	}
}

func BenchmarkOnAck(b *testing.B) {
	c := newCopa(mss, 100, 0.5, true)
	rs := cc.RateSample{AckedPackets: 1, AckedBytes: mss, SRTT: 60 * time.Millisecond}
	b.ReportAllocs()
	for i := range b.N {
		now := time.Duration(i) * 10 * time.Microsecond
		rs.RTT = 60*time.Millisecond + time.Duration(i%500)*time.Microsecond
		rs.PriorDelivered = int64(i / 100)
		rs.TotalDelivered = int64(i/100) + 1
		c.OnAck(now, &rs)
	}
}
