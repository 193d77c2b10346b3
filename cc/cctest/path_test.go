package cctest

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// fixedWindow is a controller that never reacts: a constant window and
// pacing rate, counting the RTOs it is told about.
type fixedWindow struct {
	cwnd   int
	pacing float64
	rtos   []time.Duration
}

func (f *fixedWindow) OnSend(time.Duration, cc.SentInfo)   {}
func (f *fixedWindow) OnAck(time.Duration, *cc.RateSample) {}
func (f *fixedWindow) OnRTO(now time.Duration)             { f.rtos = append(f.rtos, now) }
func (f *fixedWindow) CWnd() int                           { return f.cwnd }
func (f *fixedWindow) PacingRate() float64                 { return f.pacing }

// Path under test: 50 Mbit/s, 60 ms, so one segment takes tx = 231.68 µs
// and the BDP is 259.0 segments.
const (
	testBps  = 50e6
	testBase = 60 * time.Millisecond
)

// With a window of W segments above the BDP B and no buffer limit the
// link stays busy, and by Little's law every segment spends W·tx in
// flight: RTT = W·tx, so the queue found on arrival is W − B − 1.
func TestLittlesLaw(t *testing.T) {
	const w = 280
	c := &fixedWindow{cwnd: w * DefaultMSS}
	p := NewPath(c, testBps, testBase)
	var rateMin, rateMax float64 = math.Inf(1), 0
	p.Run(2 * time.Second)
	p.ResetStats()
	p.Observe = func(_ time.Duration, rs *cc.RateSample) {
		rateMin, rateMax = min(rateMin, rs.DeliveryRate), max(rateMax, rs.DeliveryRate)
	}
	p.Run(10 * time.Second)
	c0 := testBps / 8
	if u := p.Throughput() / c0; math.Abs(u-1) > 1e-3 {
		t.Errorf("utilisation %.5f, want 1", u)
	}
	want := w - p.BDPPackets() - 1
	if q := p.MeanQueue(); math.Abs(q-want) > 0.1 {
		t.Errorf("mean queue %.2f segments, want W − B − 1 = %.2f", q, want)
	}
	if rateMin < 0.99*c0 || rateMax > 1.01*c0 {
		t.Errorf("delivery-rate samples %.0f–%.0f B/s, want %.0f ± 1%%", rateMin, rateMax, c0)
	}
	tx := float64(DefaultMSS) / c0
	if rtt := p.Sample().RTT.Seconds(); math.Abs(rtt-w*tx) > 2*tx {
		t.Errorf("RTT %.3f ms, want W·tx = %.3f ms", rtt*1e3, w*tx*1e3)
	}
}

// A window of 20 segments sent at once into a 10.5-segment buffer loses
// segments 10–19 (the half segment keeps the limit off a float tie). The ACK for segment 20 (sent on segment 0's ACK) reports
// the 10 losses and opens an episode; the window refills at once and the
// burst 30–40 loses 40. By RFC 6675 the episode lasts until everything
// sent before it (up to segment 29) is acknowledged: ACKs of 21–28 are in
// recovery, that of 29 ends it, and segment 41's ACK opens a second one.
func TestRecoveryEpisodes(t *testing.T) {
	c := &fixedWindow{cwnd: 20 * DefaultMSS}
	p := NewPath(c, testBps, testBase)
	p.Buffer = 10*DefaultMSS + DefaultMSS/2
	var lost []int
	var inRec []bool
	p.Observe = func(_ time.Duration, rs *cc.RateSample) {
		if rs.NewLossEpisode {
			lost = append(lost, rs.LostPackets)
		} else if rs.LostPackets != 0 {
			t.Errorf("ACK %d: %d losses outside a new episode", len(inRec)+1, rs.LostPackets)
		}
		inRec = append(inRec, rs.InRecovery)
	}
	p.Run(3*testBase + 5*time.Millisecond) // ACKs of the third round trip
	if len(lost) < 2 || lost[0] != 10 || lost[1] != 1 {
		t.Fatalf("episodes reporting %v lost segments, want [10 1]", lost)
	}
	// ACK index (from 0) → segment: 0–9 → 0–9, 10 → 20, 11–19 → 21–29,
	// 20–29 → 30–39, 30 → 41.
	for i, r := range inRec[:31] {
		if want := i >= 10 && i <= 18 || i == 30; r != want {
			t.Errorf("ACK %d: InRecovery %v, want %v", i, r, want)
		}
	}
}

// When everything in flight is lost the RTO fires max(200 ms, 2·SRTT)
// after the last event: with no RTT sample yet, every 200 ms.
func TestRTO(t *testing.T) {
	c := &fixedWindow{cwnd: 10 * DefaultMSS}
	p := NewPath(c, testBps, testBase)
	p.LossP = 1
	p.Run(time.Second)
	if len(c.rtos) != 5 || c.rtos[0] != minRTO || c.rtos[4] != 5*minRTO {
		t.Errorf("RTOs at %v, want every %v", c.rtos, minRTO)
	}
	if p.Drops() != p.Sent() || p.Sent() != 50 {
		t.Errorf("%d of %d segments dropped, want all 50 (10 at 0 s and after each RTO before 1 s)", p.Drops(), p.Sent())
	}
}

// With i.i.d. loss p the measured loss rate is p within 4 standard
// deviations of a binomial over the segments sent.
func TestRandomLoss(t *testing.T) {
	const lossP = 0.02
	c := &fixedWindow{cwnd: 100 * DefaultMSS}
	p := NewPath(c, testBps, testBase)
	p.LossP = lossP
	p.Run(10 * time.Second)
	n := float64(p.Sent())
	sigma := math.Sqrt(lossP * (1 - lossP) / n)
	if got := p.LossRate(); math.Abs(got-lossP) > 4*sigma {
		t.Errorf("loss rate %.4f over %.0f segments, want %.4f ± %.4f", got, n, lossP, 4*sigma)
	}
}

// A token-bucket policer at 40% of the link passes its rate on average
// to a sender paced at the link rate.
func TestPolicer(t *testing.T) {
	police := 0.4 * testBps / 8
	c := &fixedWindow{cwnd: 1000 * DefaultMSS, pacing: testBps / 8}
	p := NewPath(c, testBps, testBase)
	p.Police(police, 20*DefaultMSS)
	p.Run(time.Second)
	p.ResetStats()
	p.Run(11 * time.Second)
	if got := p.Throughput(); math.Abs(got-police)/police > 0.01 {
		t.Errorf("throughput %.0f B/s behind a %.0f B/s policer", got, police)
	}
}

// No segment leaves the bottleneck during an outage: the ACK stream has a
// gap of the outage's length, and the queue then drains at the link rate.
func TestOutage(t *testing.T) {
	const start, length = 2 * time.Second, 300 * time.Millisecond
	c := &fixedWindow{cwnd: 280 * DefaultMSS}
	p := NewPath(c, testBps, testBase)
	p.Outages = [][2]time.Duration{{start, start + length}}
	var last, gap time.Duration
	p.Observe = func(now time.Duration, _ *cc.RateSample) {
		gap, last = max(gap, now-last), now
	}
	p.Run(4 * time.Second)
	tx := time.Duration(float64(DefaultMSS) / (testBps / 8) * float64(time.Second))
	if gap < length || gap > length+2*tx {
		t.Errorf("largest ACK gap %v, want the %v outage (+ ≤ 2 tx)", gap, length)
	}
}

// When the base RTT falls, ACKs still return in order: an RTT sample is
// never shorter than the new base, and the first ones after the step carry
// the old path's delay.
func TestRTTStepKeepsACKOrder(t *testing.T) {
	c := &fixedWindow{cwnd: 100 * DefaultMSS, pacing: testBps / 8 / 2}
	p := NewPath(c, testBps, testBase)
	p.RTT = func(at time.Duration) time.Duration {
		if at < time.Second {
			return 100 * time.Millisecond
		}
		return 50 * time.Millisecond
	}
	var prev time.Duration
	minAfter := time.Duration(math.MaxInt64)
	p.Observe = func(now time.Duration, rs *cc.RateSample) {
		if now < prev {
			t.Fatalf("ACK at %v after one at %v", now, prev)
		}
		prev = now
		if now > 1100*time.Millisecond {
			minAfter = min(minAfter, rs.RTT)
		}
	}
	p.Run(2 * time.Second)
	tx := time.Duration(float64(DefaultMSS) / (testBps / 8) * float64(time.Second))
	if minAfter < 50*time.Millisecond+tx || minAfter > 50*time.Millisecond+2*tx {
		t.Errorf("minimum RTT after the step %v, want 50 ms + tx", minAfter)
	}
}

func BenchmarkPathRun(b *testing.B) {
	b.ReportAllocs()
	c := &fixedWindow{cwnd: 300 * DefaultMSS}
	p := NewPath(c, testBps, testBase)
	p.Buffer = 20 * DefaultMSS
	p.Run(time.Second)
	b.ResetTimer()
	for i := range b.N {
		p.Run(time.Second + time.Duration(i+1)*time.Millisecond)
	}
}
