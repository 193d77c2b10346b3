package vegas

import (
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
)

const mss = 1448

// TestRegistered: "vegas" defaults to alpha 2, beta 4, gamma 1
// (tcp_vegas.c) and starts with 10 segments, unpaced.
func TestRegistered(t *testing.T) {
	cctest.Registered(t, "vegas", map[string]float64{"alpha": 2, "beta": 4, "gamma": 1})
	c, err := cc.New("vegas", cc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if c.CWnd() != 10*1448 || c.PacingRate() != 0 {
		t.Fatalf("initial cwnd %d pacing %v, want 10 segments unpaced", c.CWnd(), c.PacingRate())
	}
}

func TestParamErrors(t *testing.T) {
	for _, tc := range []struct {
		params map[string]float64
		want   string
	}{
		{map[string]float64{"alpha": 5, "beta": 4}, "alpha 5 > beta 4"},
		{map[string]float64{"gamma": -1}, "gamma"},
		{map[string]float64{"alpha": 1.5}, "whole number"},
	} {
		_, err := cc.New("vegas", cc.Config{Params: tc.params})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("params %v: error %v, want it to mention %q", tc.params, err, tc.want)
		}
	}
}

// The once-per-round decision of tcp_vegas_cong_avoid, worked by hand:
// diff = cwnd·(rtt−base)/base, truncated.
func TestAdjust(t *testing.T) {
	base := 100 * time.Millisecond
	for _, tc := range []struct {
		name     string
		cwnd     int64
		ssthresh int64
		rtt      time.Duration
		want     int64
	}{
		// 100·(103−100)/100 = 3 ∈ [2,4]: hold.
		{"hold", 100, 50, 103 * time.Millisecond, 100},
		// 100·1/100 = 1 < alpha: +1.
		{"grow", 100, 50, 101 * time.Millisecond, 101},
		// 100·5.5/100 = 5.5 → 5 > beta: −1.
		{"shrink", 100, 50, 105500 * time.Microsecond, 99},
		// 100·4.9/100 = 4.9 → 4: truncation holds.
		{"truncated", 100, 50, 104900 * time.Microsecond, 100},
		// slow start, diff 3 > gamma: cwnd = cwnd·base/rtt + 1 = 97+1.
		{"ss-exit", 100, infiniteSSThresh, 103 * time.Millisecond, 98},
		// slow start, diff 0 ≤ gamma: grows by the ACK's segment.
		{"ss-grow", 100, infiniteSSThresh, 100 * time.Millisecond, 101},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newVegas(mss, tc.cwnd, 2, 4, 1)
			v.ssthresh = tc.ssthresh
			v.baseRTT = base.Microseconds() + 1
			v.maxInflight = int64(tc.cwnd) * mss
			// Take enough samples in a round, then close it.
			v.roundStart = 1
			for range minRTTSamples {
				v.OnAck(0, &cc.RateSample{RTT: tc.rtt, AckedPackets: 0})
			}
			v.OnAck(0, &cc.RateSample{RTT: tc.rtt, AckedPackets: 1, AckedBytes: mss, PriorDelivered: 1, TotalDelivered: 2})
			if v.cwnd != tc.want {
				t.Fatalf("cwnd %d, want %d (diff %d)", v.cwnd, tc.want, v.lastDiff)
			}
			if tc.name == "ss-exit" && v.inSlowStart() {
				t.Fatalf("still in slow start after gamma exit: ssthresh %d", v.ssthresh)
			}
		})
	}
}

// With too few RTT samples in a round Vegas behaves like Reno: in
// congestion avoidance one segment per window of ACKed segments.
func TestRenoFallback(t *testing.T) {
	v := newVegas(mss, 10, 2, 4, 1)
	v.ssthresh = 5
	v.maxInflight = 10 * mss
	for i := range 10 {
		// every ACK closes a round with a single sample
		v.OnAck(0, &cc.RateSample{RTT: 50 * time.Millisecond, AckedPackets: 1, AckedBytes: mss,
			PriorDelivered: int64(i), TotalDelivered: int64(i + 1), Inflight: 10 * mss})
	}
	if v.cwnd != 11 {
		t.Fatalf("cwnd %d after 10 ACKs at cwnd 10 in avoidance, want 11 (Reno AI)", v.cwnd)
	}
}

func TestLossAndRTO(t *testing.T) {
	v := newVegas(mss, 40, 2, 4, 1)
	v.OnAck(0, &cc.RateSample{LostPackets: 1, LostBytes: mss, NewLossEpisode: true, InRecovery: true})
	if v.cwnd != 20 || v.ssthresh != 20 || v.doing {
		t.Fatalf("after loss cwnd %d ssthresh %d doing %v, want 20 20 false", v.cwnd, v.ssthresh, v.doing)
	}
	v.OnAck(0, &cc.RateSample{AckedPackets: 5, AckedBytes: 5 * mss, InRecovery: true})
	if v.cwnd != 20 {
		t.Fatalf("grew in recovery: %d", v.cwnd)
	}
	v.OnAck(0, &cc.RateSample{AckedPackets: 1, AckedBytes: mss, TotalDelivered: 99})
	if !v.doing || v.roundStart != 99 || v.cntRTT != 0 {
		t.Fatalf("recovery end did not re-enable Vegas: doing %v roundStart %d", v.doing, v.roundStart)
	}
	v.OnRTO(0)
	if v.cwnd != 1 || v.ssthresh != 10 {
		t.Fatalf("after RTO cwnd %d ssthresh %d, want 1 and 10", v.cwnd, v.ssthresh)
	}
}

// A restart from idle forgets baseRTT (CA_EVENT_TX_START → tcp_vegas_init).
func TestIdleRestart(t *testing.T) {
	v := newVegas(mss, 10, 2, 4, 1)
	v.OnSend(0, cc.SentInfo{Bytes: mss, Inflight: mss})
	v.OnAck(0, &cc.RateSample{RTT: 30 * time.Millisecond, AckedPackets: 1, AckedBytes: mss})
	if v.baseRTT != 30001 {
		t.Fatalf("baseRTT %d µs, want 30001", v.baseRTT)
	}
	v.OnSend(time.Second, cc.SentInfo{Bytes: mss, Inflight: mss})
	if v.baseRTT != noRTT {
		t.Fatalf("baseRTT %d kept across an idle restart", v.baseRTT)
	}
}

// On a fixed 50 Mbit/s, 60 ms path with a one-BDP drop-tail buffer Vegas
// settles with between alpha and beta segments queued. The rule holds the
// window while diff = cwnd·(rtt−base)/base, which is the queue times
// rtt/base, truncates into [alpha, beta]; it moves one segment per round
// otherwise, so the queue stays in [alpha−1, beta+1] with the bottleneck
// kept busy. (Slow start overshoots, as Linux's does: the gamma test sees
// the round's minimum RTT, a round late; the buffer's loss ends it and
// Vegas then drains the rest one segment per round.)
func TestSettlesBetweenAlphaAndBeta(t *testing.T) {
	v, _ := New(cc.Config{MSS: mss, InitialCWnd: 10})
	p := cctest.NewPath(v, 50e6, 60*time.Millisecond)
	p.Buffer = int(p.BDPPackets()) * p.MSS
	p.Run(20 * time.Second)
	p.ResetStats()
	minQ, maxQ := 1e9, 0.0
	p.Observe = func(time.Duration, *cc.RateSample) {
		q := p.QueuePackets()
		minQ, maxQ = min(minQ, q), max(maxQ, q)
	}
	p.Run(40 * time.Second)
	q := p.MeanQueue()
	util := p.Throughput() / p.Rate(0)
	t.Logf("mean queue %.2f pkts (range %.1f–%.1f), utilisation %.4f, cwnd %d pkts, BDP %.1f pkts",
		q, minQ, maxQ, util, v.cwnd, p.BDPPackets())
	if q < defaultAlpha-1 || q > defaultBeta+1 {
		t.Errorf("mean queue %.2f packets outside [alpha−1, beta+1] = [%d, %d]", q, defaultAlpha-1, defaultBeta+1)
	}
	if maxQ > 3*defaultBeta {
		t.Errorf("queue peaked at %.1f packets, more than 3·beta", maxQ)
	}
	if util < 0.99 {
		t.Errorf("utilisation %.4f < 0.99 with a standing queue", util)
	}
}

// A drop-tail buffer smaller than Vegas's slow-start overshoot causes a
// loss; Vegas halves (Reno) and then recovers to its alpha..beta queue.
func TestRecoversAfterLoss(t *testing.T) {
	v, _ := New(cc.Config{MSS: mss, InitialCWnd: 10})
	p := cctest.NewPath(v, 50e6, 60*time.Millisecond)
	p.Buffer = 5 * p.MSS
	losses := 0
	p.Observe = func(_ time.Duration, rs *cc.RateSample) {
		if rs.NewLossEpisode {
			losses++
		}
	}
	u := p.Utilisation(40*time.Second, 60*time.Second)
	t.Logf("loss episodes %d, utilisation %.4f, mean queue %.2f", losses, u, p.MeanQueue())
	if u < 0.95 {
		t.Errorf("utilisation %.4f < 0.95 after recovering", u)
	}
}

func BenchmarkOnAck(b *testing.B) {
	v := newVegas(mss, 100, 2, 4, 1)
	v.ssthresh = 50
	rs := cc.RateSample{AckedPackets: 1, AckedBytes: mss, Inflight: 100 * mss}
	b.ReportAllocs()
	for i := range b.N {
		rs.RTT = time.Duration(60000+i%7) * time.Microsecond
		rs.PriorDelivered = int64(i)
		rs.TotalDelivered = int64(i+1) * mss
		v.OnSend(0, cc.SentInfo{Bytes: mss, Inflight: 100 * mss})
		v.OnAck(0, &rs)
	}
}

// After an RTO the window grows as Reno slow start (Linux runs cong_avoid
// in the Loss state) up to ssthresh, then Vegas resumes once repaired.
func TestGrowthAfterRTO(t *testing.T) {
	v := newVegas(mss, 40, 2, 4, 1)
	v.OnRTO(0)
	v.OnRTO(time.Second) // backed off: no second halving
	if v.cwnd != 1 || v.ssthresh != 20 {
		t.Fatalf("after RTOs cwnd %d ssthresh %d, want 1 and 20", v.cwnd, v.ssthresh)
	}
	for i := range 30 {
		v.OnSend(0, cc.SentInfo{Bytes: mss, Inflight: v.CWnd()})
		v.OnAck(0, &cc.RateSample{AckedPackets: 1, AckedBytes: mss, InRecovery: true, TotalDelivered: int64(i)})
	}
	if v.cwnd != 20 || !v.lossState {
		t.Fatalf("cwnd %d lossState %v after 30 ACKs in RTO recovery, want 20 (slow start to ssthresh, then AI)", v.cwnd, v.lossState)
	}
	v.OnAck(0, &cc.RateSample{AckedPackets: 1, AckedBytes: mss, TotalDelivered: 31})
	if v.lossState || !v.doing {
		t.Fatal("Vegas not re-enabled after the RTO recovery")
	}
}
