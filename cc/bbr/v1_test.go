package bbr

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// TestV1Converges: the bandwidth estimate converges to the bottleneck rate
// within 5%, the gain cycle visits all three gains, and the steady pacing
// rate averages ~0.99·bw (the 1% margin) over whole cycles.
func TestV1Converges(t *testing.T) {
	for _, rate := range []float64{10e6, 100e6} {
		c := newTest("bbr1", 5, nil)
		b := c.(*V1)
		p := newSynth(c, rate, 50*time.Millisecond)
		seen := map[float64]bool{}
		p.Observe = func(now time.Duration, rs *cc.RateSample) {
			if b.mode == modeProbeBW {
				seen[b.pacingGain] = true
			}
		}
		p.Run(8 * time.Second)
		if got := b.bwEst(); math.Abs(got-p.Rate(0))/p.Rate(0) > 0.05 {
			t.Errorf("%v bit/s: btlbw %.0f B/s, want %.0f ±5%%", rate, got, p.Rate(0))
		}
		if !seen[1.25] || !seen[0.75] || !seen[1] {
			t.Errorf("%v bit/s: gains seen %v, want 1.25, 0.75 and 1", rate, seen)
		}
		if b.mode == modeProbeBW && b.pacingGain == 1 {
			if want := 0.99 * b.bwEst(); math.Abs(b.pacing-want) > 1e-6*want {
				t.Errorf("cruise pacing %v, want 0.99·bw = %v", b.pacing, want)
			}
		}
	}
}

// BenchmarkV1OnAck measures the per-ACK cost in steady state.
func BenchmarkV1OnAck(b *testing.B) {
	benchOnAck(b, "bbr1")
}

// benchOnAck warms a controller up on the synthetic path, then replays
// steady-state ACKs.
func benchOnAck(b *testing.B, name string) {
	c := newTest(name, 1, nil)
	p := newSynth(c, 100e6, 40*time.Millisecond)
	p.Run(2 * time.Second)
	rs := p.Sample()
	now := p.Now()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		now += 116 * time.Microsecond
		rs.PriorDelivered += 1448
		rs.TotalDelivered += 1448
		rs.RTT = 40*time.Millisecond + time.Duration(i%64)*time.Microsecond
		c.OnAck(now, &rs)
	}
}
