package cubic

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/reno"
)

const (
	testMSS = 1448                  // bytes, Linux's MSS with timestamps on a 1500 B path
	testRTT = 50 * time.Millisecond // fixed round-trip time of the synthetic streams
	// Expected values are computed from the published constants, not the
	// implementation's: β = 0.7 (RFC 9438 §4.6), C = 0.4 (§5.1).
	rfcBeta = 0.7
	rfcC    = 0.4
	// betaTol is the relative gap between Linux's 717/1024 and 0.7.
	betaTol = 0.0003
)

// flow drives a controller with a synthetic ACK stream, one ACK per
// full-sized segment, and keeps the totals a transport would report. ACKs
// of one round carry the delivered count at the round's start as
// PriorDelivered, so round-trip detection sees one round per call.
type flow struct {
	now       time.Duration
	delivered int64
	roundBase int64
	rs        cc.RateSample
}

// ack delivers one ACK for n segments measured with rtt.
func (f *flow) ack(c cc.Controller, n int, rtt time.Duration, newEpisode, inRecovery bool) {
	f.rs = cc.RateSample{
		AckedBytes: n * testMSS, AckedPackets: n,
		RTT: rtt, MinRTT: rtt, SRTT: rtt,
		PriorDelivered: f.roundBase,
		NewLossEpisode: newEpisode, InRecovery: inRecovery,
	}
	f.delivered += int64(n * testMSS)
	f.rs.TotalDelivered = f.delivered
	c.OnAck(f.now, &f.rs)
}

// round acknowledges the window held at the round's start, one ACK per
// segment spread evenly over one RTT.
func (f *flow) round(c cc.Controller, inRecovery bool) {
	f.roundBase = f.delivered
	n := c.CWnd() / testMSS
	start := f.now
	for i := range n {
		f.now = start + time.Duration(i+1)*testRTT/time.Duration(n)
		f.ack(c, 1, testRTT, false, inRecovery)
	}
}

// burst acknowledges the window held at the round's start in a train of
// ACKs gap apart, all measuring rtt, and moves to the next round one rtt
// after the train began.
func (f *flow) burst(c cc.Controller, gap, rtt time.Duration) {
	f.roundBase = f.delivered
	n := c.CWnd() / testMSS
	start := f.now
	for i := range n {
		f.now = start + time.Duration(i)*gap
		f.ack(c, 1, rtt, false, false)
	}
	f.now = start + rtt
}

// loseN starts a loss episode on an ACK for n segments.
func (f *flow) loseN(c cc.Controller, n int) { f.ack(c, n, testRTT, true, true) }

func segs(c *Cubic) float64 { return float64(c.CWnd()) / testMSS }

func defaults() options {
	return options{mss: testMSS, cwnd: 10 * testMSS, ssthresh: reno.InfiniteSSThresh,
		hystart: HyStartLinux, detect: hystartACKTrain | hystartDelay,
		fastConvergence: true, friendliness: true}
}

// inAvoidance returns a CUBIC at w segments in congestion avoidance with
// delay_min measured, W_max unknown and no HyStart.
func inAvoidance(w int, f *flow) *Cubic {
	o := defaults()
	o.cwnd, o.ssthresh, o.hystart = w*testMSS, w*testMSS, HyStartOff
	c := newCubic(o)
	f.roundBase = f.delivered
	f.ack(c, 1, testRTT, false, false) // measures delay_min
	return c
}

// TestFastConvergence: a loss below the previous W_max sets
// W_max = cwnd·(1+β)/2 (RFC 9438 §4.7); with it off, W_max = cwnd.
func TestFastConvergence(t *testing.T) {
	for _, fc := range []bool{true, false} {
		var f flow
		c := inAvoidance(1000, &f)
		c.opt.fastConvergence = fc
		f.loseN(c, 1) // W_max = 1000
		f.round(c, true)
		for c.CWnd() < 900*testMSS {
			f.round(c, false)
		}
		w := segs(c)
		f.loseN(c, 1)
		want := w
		if fc {
			want = w * (1 + rfcBeta) / 2
		}
		if got := c.Inspect()["w_max_bytes"] / testMSS; math.Abs(got/want-1) > betaTol {
			t.Fatalf("fast convergence %v: W_max %.2f segments after a loss at %.1f, want %.2f", fc, got, w, want)
		}
		if math.Abs(segs(c)/(w*rfcBeta)-1) > betaTol {
			t.Fatalf("cwnd %.1f after loss at %.1f, want β·cwnd", segs(c), w)
		}
	}
}

// TestNoGrowthInRecovery: fast recovery ACKs leave cwnd at β·cwnd.
func TestNoGrowthInRecovery(t *testing.T) {
	var f flow
	c := inAvoidance(100, &f)
	f.loseN(c, 1)
	w := c.CWnd()
	for range 5 {
		f.round(c, true)
	}
	if c.CWnd() != w || c.Inspect()["phase"] != reno.PhaseRecovering {
		t.Fatalf("recovery: cwnd %d→%d phase %v", w, c.CWnd(), c.Inspect()["phase"])
	}
}

// TestRTO: cwnd = 1 MSS, ssthresh = β·cwnd, W_max and HyStart reset, then
// slow start back to ssthresh.
func TestRTO(t *testing.T) {
	var f flow
	c := inAvoidance(400, &f)
	f.loseN(c, 1)
	f.round(c, false)
	w := c.CWnd()
	c.OnRTO(f.now)
	in := c.Inspect()
	if c.CWnd() != testMSS || math.Abs(float64(c.ssthresh)/(float64(w)*rfcBeta)-1) > betaTol {
		t.Fatalf("after RTO: cwnd %d, ssthresh %d; want %d, β·%d", c.CWnd(), c.ssthresh, testMSS, w)
	}
	if in["w_max_bytes"] != 0 || in["k_s"] != 0 || c.fn.epochSet || c.delayMin != 0 {
		t.Fatalf("RTO did not reset the cubic state: %v", in)
	}
	for range 12 {
		f.round(c, false)
	}
	if c.CWnd() < c.ssthresh {
		t.Fatalf("slow start after RTO reached %.1f segments only, ssthresh %d", segs(c), c.ssthresh/testMSS)
	}
}

// TestKScale: with SetKScale(1/9) the epoch after a loss gets K/9, K =
// ∛((W_max − cwnd)/C) (RFC 9438 eq. 2 with Linux's cwnd at the epoch
// start), and the window is back at W_max about K/9 later, where plain
// CUBIC is still C·(K − K/9)³ below it. An epoch already running keeps its
// K; the scale survives an RTO; the RTO is counted in Inspect's rtos.
func TestKScale(t *testing.T) {
	const w0 = 1000
	var at [2]float64 // cwnd (segments) one K/9 after the epoch start
	var k [2]float64
	for i, scale := range []float64{1, 1.0 / 9} {
		var f flow
		c := inAvoidance(w0, &f)
		c.SetKScale(scale)
		f.loseN(c, 1) // W_max = 1000, cwnd = β·1000
		w := segs(c)
		f.round(c, false) // the first avoidance ACK starts the epoch
		k[i] = math.Cbrt((w0 - w) / rfcC)
		if got := c.Inspect()["k_s"]; math.Abs(got-scale*k[i]) > 1e-9 {
			t.Fatalf("scale %.3f: K %v s, want %v", scale, got, scale*k[i])
		}
		end := c.fn.epochStart + time.Duration(k[i]/9*float64(time.Second))
		for f.now < end {
			f.round(c, false)
		}
		at[i] = segs(c)
	}
	t.Logf("K %.2f s; at K/9 = %.2f s: %.1f segments with K, %.1f with K/9", k[0], k[0]/9, at[0], at[1])
	// The target runs one min_rtt ahead and cnt ≥ 2 caps growth at 1.5×
	// per round: within 1% of W_max at t = K/9.
	if at[1] < 0.99*w0 || at[1] > 1.01*w0 {
		t.Errorf("K/9: %.1f segments at K/9, want W_max %d ±1%%", at[1], w0)
	}
	// Plain CUBIC at K/9 (+ one round of lead) is on the concave part.
	below := rfcC * math.Pow(k[0]-k[0]/9-2*testRTT.Seconds(), 3)
	if at[0] > w0-below {
		t.Errorf("K: %.1f segments at K/9, want ≤ W_max − %.0f", at[0], below)
	}
	var f flow
	c := inAvoidance(w0, &f)
	f.loseN(c, 1)
	f.round(c, false)
	kRun := c.fn.k
	c.SetKScale(1.0 / 9)
	f.round(c, false)
	kAfter := c.fn.k
	c.OnRTO(f.now)
	if kAfter != kRun || c.fn.kShrink != 1-1.0/9 || c.Inspect()["rtos"] != 1 {
		t.Errorf("running epoch K %v → %v, shrink after RTO %v, rtos %v", kRun, kAfter, c.fn.kShrink, c.Inspect()["rtos"])
	}
	for _, bad := range []float64{0, -1, 1.5, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("SetKScale(%v) accepted", bad)
				}
			}()
			c.SetKScale(bad)
		}()
	}
}

// TestIdleShiftsEpoch: a send with nothing in flight after an idle period
// shifts the epoch by the idle time (Linux CA_EVENT_TX_START).
func TestIdleShiftsEpoch(t *testing.T) {
	var f flow
	c := inAvoidance(100, &f)
	f.loseN(c, 1)
	f.round(c, false)
	c.OnSend(f.now, cc.SentInfo{Bytes: testMSS, Inflight: 2 * testMSS})
	start := c.fn.epochStart
	c.OnSend(f.now+time.Second, cc.SentInfo{Bytes: testMSS, Inflight: testMSS})
	if got := c.fn.epochStart - start; got != time.Second {
		t.Fatalf("epoch shifted by %v after 1 s idle, want 1s", got)
	}
}

func TestNewAndRegistry(t *testing.T) {
	c, err := cc.New("cubic", cc.Config{MSS: testMSS, InitialCWnd: 10})
	if err != nil {
		t.Fatal(err)
	}
	cu := c.(*Cubic)
	if cu.opt.hystart != HyStartLinux || !cu.opt.fastConvergence || !cu.opt.friendliness || c.PacingRate() != 0 {
		t.Fatalf("defaults wrong: %+v", cu.opt)
	}
	for _, tt := range []struct {
		params map[string]float64
		errHas string
	}{
		{map[string]float64{"hystart": 3}, "hystart"},
		{map[string]float64{"hystart": 1.5}, "hystart"},
		{map[string]float64{"fast_convergence": 2}, "fast_convergence"},
		{map[string]float64{"hystart_detect": 4}, "hystart_detect"},
		{map[string]float64{"beta": 0.5}, "beta"},
	} {
		_, err := cc.New("cubic", cc.Config{MSS: testMSS, InitialCWnd: 10, Params: tt.params})
		if err == nil || !strings.Contains(err.Error(), tt.errHas) {
			t.Fatalf("params %v: err %v, want one naming %q", tt.params, err, tt.errHas)
		}
	}
	c, err = cc.New("cubic", cc.Config{MSS: testMSS, InitialCWnd: 10, Params: map[string]float64{"hystart": 0}})
	if err != nil || c.(*Cubic).opt.hystart != HyStartOff {
		t.Fatalf("hystart=0: %v", err)
	}
}

func BenchmarkOnAckAvoidance(b *testing.B) {
	var f flow
	c := inAvoidance(1000, &f)
	f.loseN(c, 1)
	rs := cc.RateSample{AckedBytes: testMSS, AckedPackets: 1, RTT: testRTT, SRTT: testRTT}
	now := f.now
	b.ReportAllocs()
	for range b.N {
		now += 20 * time.Microsecond
		rs.TotalDelivered += testMSS
		c.OnAck(now, &rs)
		if c.cwnd > 100000*testMSS {
			c.cwnd = 1000 * testMSS
		}
	}
}

func BenchmarkOnAckSlowStartHyStart(b *testing.B) {
	c := newCubic(defaults())
	rs := cc.RateSample{AckedBytes: testMSS, AckedPackets: 1, RTT: testRTT, SRTT: testRTT}
	b.ReportAllocs()
	for i := range b.N {
		rs.TotalDelivered += testMSS
		rs.PriorDelivered = rs.TotalDelivered - int64(c.cwnd)
		c.OnAck(time.Duration(i)*100*time.Microsecond, &rs)
		if c.cwnd >= c.ssthresh {
			c.cwnd, c.ssthresh, c.hy.found = 10*testMSS, reno.InfiniteSSThresh, false
		}
	}
}

// TestInvariants drives random event sequences in every HyStart mode and
// checks cwnd ≥ 1 MSS, ssthresh ≥ 2 MSS, cnt ≥ 2 and no growth in fast
// recovery.
func TestInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 150 {
		o := defaults()
		o.hystart = trial % 3
		c := newCubic(o)
		var f flow
		inRec := false
		for step := range 600 {
			f.now += time.Duration(1+rng.IntN(3000)) * time.Microsecond
			if rng.IntN(40) == 0 {
				f.roundBase = f.delivered
			}
			rtt := testRTT + time.Duration(rng.IntN(20))*time.Millisecond
			before := c.CWnd()
			switch x := rng.IntN(100); {
			case x < 1:
				c.OnRTO(f.now)
				inRec = true
			case x < 4 && !inRec:
				f.loseN(c, 1)
				inRec = true
			case x < 14:
				inRec = false
				f.ack(c, 1+rng.IntN(3), rtt, false, false)
			default:
				f.ack(c, 1+rng.IntN(3), rtt, false, inRec)
				if c.ep.Phase() == reno.Recovery && c.CWnd() != before {
					t.Fatalf("trial %d step %d: cwnd changed in fast recovery", trial, step)
				}
			}
			if c.CWnd() < testMSS || c.ssthresh < 2*testMSS || (c.fn.epochSet && c.fn.cnt < minCnt) {
				t.Fatalf("trial %d step %d: cwnd %d ssthresh %d cnt %v", trial, step, c.CWnd(), c.ssthresh, c.fn.cnt)
			}
		}
	}
}

// TestSetCWnd: an overwritten window is what CUBIC sends with and grows
// from. Above ssthresh one round adds at most 1.5× (Linux's cnt ≥ 2);
// below it CUBIC is back in slow start, as Linux is when snd_cwnd is set
// under snd_ssthresh, and doubles at most to ssthresh. The 2·MSS floor
// holds.
func TestSetCWnd(t *testing.T) {
	var f flow
	c := inAvoidance(400, &f)
	if c.InSlowStart() {
		t.Fatal("in avoidance, InSlowStart is true")
	}
	c.SetCWnd(600 * testMSS)
	if c.CWnd() != 600*testMSS {
		t.Fatalf("cwnd %d after SetCWnd(600 segments)", c.CWnd())
	}
	f.round(c, false)
	if w := segs(c); w < 600 || w > 900 {
		t.Fatalf("one round after SetCWnd(600): %.1f segments, want in [600, 900]", w)
	}
	c.SetCWnd(100 * testMSS)
	if !c.InSlowStart() {
		t.Fatal("cwnd below ssthresh but InSlowStart is false")
	}
	f.round(c, false)
	if w := segs(c); w != 200 {
		t.Fatalf("one slow-start round after SetCWnd(100): %.1f segments, want 200", w)
	}
	c.SetCWnd(1)
	if c.CWnd() != cc.MinCWnd(testMSS) {
		t.Fatalf("SetCWnd(1): cwnd %d, want the floor %d", c.CWnd(), cc.MinCWnd(testMSS))
	}
}
