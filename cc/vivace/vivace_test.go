package vivace

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
)

// TestRegistered: "pcc" and "vivace" name the same controller, with
// ε = 0.05 and θ0 = 1 by default; ε = 0.7 is refused.
func TestRegistered(t *testing.T) {
	defaults := map[string]float64{"epsilon": 0.05, "theta0": 1}
	cctest.Registered(t, "pcc", defaults, map[string]float64{"epsilon": 0.7})
	cctest.Registered(t, "vivace", defaults)
}

// Before an RTT sample Vivace sends its initial window unpaced; the first
// sample sets the rate to that window per RTT and starts an MI.
func TestStart(t *testing.T) {
	c, _ := cc.New("pcc", cc.Config{})
	v := c.(*Vivace)
	if v.CWnd() != 10*1448 || v.PacingRate() != 0 {
		t.Fatalf("initial cwnd %d pacing %v", v.CWnd(), v.PacingRate())
	}
	v.OnAck(0, &cc.RateSample{RTT: 50 * time.Millisecond, SRTT: 50 * time.Millisecond, AckedBytes: 1448})
	if want := 10 * 1448 / 0.05; v.rate != want || v.PacingRate() != want {
		t.Fatalf("rate %v, want %v", v.rate, want)
	}
	if want := int(2 * v.rate * 0.05); v.CWnd() != want {
		t.Fatalf("cwnd %d, want 2·rate·srtt = %d", v.CWnd(), want)
	}
}

// pathAt builds a cctest.Path with Vivace already probing at rate bits/s.
func pathAt(bps, startBps float64, base time.Duration) (*Vivace, *cctest.Path) {
	v, _ := New(cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(1, 2))})
	p := cctest.NewPath(v, bps, base)
	p.Run(base + base/10) // first RTT sample
	v.rate, v.mode = startBps/8, ModeProbing
	v.planRound()
	return v, p
}

// Below capacity utility rises with rate (no queue, no loss), so the rate
// climbs the gradient to the bottleneck and keeps it busy with a small
// queue.
func TestClimbsToCapacity(t *testing.T) {
	v, p := pathAt(50e6, 10e6, 60*time.Millisecond)
	p.Buffer = int(p.BDPPackets()) * p.MSS
	p.Run(10 * time.Second)
	r10 := v.rate * 8
	p.ResetStats()
	p.Run(40 * time.Second)
	u := p.Throughput() / p.Rate(0)
	t.Logf("rate at 10 s %.1f Mbit/s; 10–40 s utilisation %.3f, mean queue %.1f pkts", r10/1e6, u, p.MeanQueue())
	if r10 < 40e6 {
		t.Errorf("rate %.1f Mbit/s after 10 s from 10, want ≥ 40 (80%% of capacity)", r10/1e6)
	}
	if u < 0.9 {
		t.Errorf("utilisation %.3f < 0.9", u)
	}
	if q := p.MeanQueue(); q > p.BDPPackets()/2 {
		t.Errorf("mean queue %.1f packets, more than half a BDP", q)
	}
}

// With random loss L the utility gradient at x Mbit/s is 0.9·x^−0.1 −
// 11.35·L: at 200 Mbit/s it turns negative above L = 4.7%. So with 2% loss
// the rate rises and with 10% it falls (the noisy measurement makes this a
// drift, so the test looks 30 s ahead for a factor of 1.5).
func TestLossResponse(t *testing.T) {
	for _, tc := range []struct {
		loss float64
		up   bool
	}{{0.02, true}, {0.10, false}} {
		v, p := pathAt(1e9, 200e6, 50*time.Millisecond)
		p.LossP = tc.loss
		p.Run(30 * time.Second)
		r := v.rate * 8 / 1e6
		t.Logf("loss %.0f%%: 200 → %.1f Mbit/s in 30 s", tc.loss*100, r)
		if tc.up && r < 300 {
			t.Errorf("loss %.0f%% (below 4.7%%): rate %.1f Mbit/s, want ≥ 300", tc.loss*100, r)
		}
		if !tc.up && r > 133 {
			t.Errorf("loss %.0f%% (above 4.7%%): rate %.1f Mbit/s, want ≤ 133", tc.loss*100, r)
		}
	}
}

// From a cold start on 50 Mbit/s, 60 ms with a one-BDP buffer, Vivace alone
// uses at least 80% of the link (issue 5, acceptance 2 on the test path).
func TestColdStartUtilisation(t *testing.T) {
	v, _ := New(cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(9, 9))})
	p := cctest.NewPath(v, 50e6, 60*time.Millisecond)
	p.Buffer = int(p.BDPPackets()) * p.MSS
	u := p.Utilisation(5*time.Second, 60*time.Second)
	loss := p.LossRate()
	t.Logf("5–60 s utilisation %.3f, loss %.4f, mean queue %.1f pkts", u, loss, p.MeanQueue())
	if u < 0.8 {
		t.Errorf("utilisation %.3f < 0.8", u)
	}
}

func BenchmarkOnAck(b *testing.B) {
	v := newTest(b)
	v.rate, v.mode = 100e6/8, ModeProbing
	v.planRound()
	rs := cc.RateSample{AckedBytes: 1448, AckedPackets: 1, SRTT: 50 * time.Millisecond}
	b.ReportAllocs()
	for i := range b.N {
		now := time.Duration(i) * 100 * time.Microsecond
		v.OnSend(now, cc.SentInfo{Bytes: 1448})
		rs.RTT = 50*time.Millisecond + time.Duration(i%100)*time.Microsecond
		v.OnAck(now, &rs)
	}
}
