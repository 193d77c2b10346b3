package hybla

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
)

const mss = 1448

// TestRegistered: "hybla" defaults to RTT0 = 25 ms (tcp_hybla.c) and
// Linux's per-ACK increments, and refuses RTT0 = 0 and a non-binary per_ack.
func TestRegistered(t *testing.T) {
	cctest.Registered(t, "hybla", map[string]float64{"rtt0_ms": 25, "per_ack": 1},
		map[string]float64{"rtt0_ms": 0}, map[string]float64{"per_ack": 2})
}

// rho = max(SRTT/rtt0, 1) from the smallest SRTT seen.
func TestRho(t *testing.T) {
	for _, tc := range []struct {
		srtt []time.Duration
		want float64
	}{
		{[]time.Duration{10 * time.Millisecond}, 1},
		{[]time.Duration{25 * time.Millisecond}, 1},
		{[]time.Duration{60 * time.Millisecond}, 2.4},
		{[]time.Duration{100 * time.Millisecond}, 4},
		// a larger SRTT later does not raise rho (hybla_cong_avoid
		// recalculates only on a new minimum)
		{[]time.Duration{50 * time.Millisecond, 200 * time.Millisecond}, 2},
		{[]time.Duration{200 * time.Millisecond, 50 * time.Millisecond}, 2},
	} {
		h := newHybla(mss, 10, defaultRTT0, false)
		for _, s := range tc.srtt {
			h.OnAck(0, &cc.RateSample{SRTT: s})
		}
		if math.Abs(h.rho-tc.want) > 1e-9 {
			t.Errorf("SRTT %v: rho %v, want %v", tc.srtt, h.rho, tc.want)
		}
	}
}

// ackWindow feeds one window of single-segment ACKs with the window full.
func ackWindow(h *Hybla, srtt time.Duration, ackedPer int) {
	w := int(h.cwnd)
	for i := 0; i < w; i += ackedPer {
		h.OnSend(0, cc.SentInfo{Bytes: mss, Inflight: h.CWnd()})
		h.OnAck(0, &cc.RateSample{SRTT: srtt, AckedPackets: ackedPer, AckedBytes: ackedPer * mss,
			Inflight: h.CWnd() - mss})
	}
}

// One window of ACKs multiplies the slow-start window by 2^rho, and adds
// rho² segments in congestion avoidance (less the second-order term
// rho⁴/(2W) from cwnd growing within the window).
func TestGrowthPerWindow(t *testing.T) {
	for _, srtt := range []time.Duration{10 * time.Millisecond, 50 * time.Millisecond, 75 * time.Millisecond, 100 * time.Millisecond} {
		rho := max(srtt.Seconds()/defaultRTT0.Seconds(), 1)
		h := newHybla(mss, 10, defaultRTT0, false)
		h.OnAck(0, &cc.RateSample{SRTT: srtt})
		ackWindow(h, srtt, 1)
		if want := 10 * math.Exp2(rho); math.Abs(h.cwnd-want) > 1e-6 {
			t.Errorf("SRTT %v slow start: cwnd %.3f after a window from 10, want 10·2^%.1f = %.3f", srtt, h.cwnd, rho, want)
		}
		h = newHybla(mss, 400, defaultRTT0, false)
		h.ssthresh = 400
		h.OnAck(0, &cc.RateSample{SRTT: srtt})
		ackWindow(h, srtt, 1)
		want := rho * rho
		if got := h.cwnd - 400; math.Abs(got-want) > want*want/(2*400)+1e-9 {
			t.Errorf("SRTT %v avoidance: grew %.3f segments in a window, want rho² = %.3f", srtt, got, want)
		}
	}
}

// per_ack=1 counts one increment per ACK, as Linux: with delayed ACKs (two
// segments each) slow start grows by half as many increments.
func TestPerAck(t *testing.T) {
	srtt := 50 * time.Millisecond // rho 2: +3 per increment
	seg := newHybla(mss, 10, defaultRTT0, false)
	ack := newHybla(mss, 10, defaultRTT0, true)
	for _, h := range []*Hybla{seg, ack} {
		h.OnAck(0, &cc.RateSample{SRTT: srtt})
		ackWindow(h, srtt, 2)
	}
	if seg.cwnd != 40 || ack.cwnd != 25 {
		t.Fatalf("cwnd per segment %.1f (want 10+10·3 = 40), per ACK %.1f (want 10+5·3 = 25)", seg.cwnd, ack.cwnd)
	}
}

func TestLossAndRTO(t *testing.T) {
	h := newHybla(mss, 41, defaultRTT0, false)
	h.OnAck(0, &cc.RateSample{LostPackets: 1, NewLossEpisode: true, InRecovery: true})
	if h.cwnd != 20 || h.ssthresh != 20 || !h.recovering {
		t.Fatalf("after loss cwnd %v ssthresh %v, want 20 20 (Reno halving)", h.cwnd, h.ssthresh)
	}
	h.OnSend(0, cc.SentInfo{Bytes: mss, Inflight: h.CWnd()})
	h.OnAck(0, &cc.RateSample{AckedPackets: 3, InRecovery: true})
	if h.cwnd != 20 {
		t.Fatalf("grew in recovery to %v", h.cwnd)
	}
	h.OnRTO(0) // in the same loss episode: no second halving (tcp_enter_loss)
	if h.cwnd != 1 || h.ssthresh != 20 {
		t.Fatalf("after RTO cwnd %v ssthresh %v, want 1 and 20", h.cwnd, h.ssthresh)
	}
}

// roundTracker samples the window at each round boundary on a cctest.Path.
type roundTracker struct {
	next  int64
	cwnds []float64
}

func (r *roundTracker) observe(h *Hybla) func(time.Duration, *cc.RateSample) {
	return func(_ time.Duration, rs *cc.RateSample) {
		if rs.PriorDelivered >= r.next {
			r.next = rs.TotalDelivered
			r.cwnds = append(r.cwnds, h.cwnd)
		}
	}
}

// Over a path with spare capacity the window per round trip multiplies by
// 2^rho in slow start and grows by rho² in avoidance, rho = RTT/25 ms.
// Windows start large (100 and 1000 segments) so that sampling at a round's
// first ACK, and the window growing within a round, shift the measured
// ratios by less than 2% (one increment in a window).
func TestGrowthPerRTTOnPath(t *testing.T) {
	for _, base := range []time.Duration{25 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond} {
		rho := base.Seconds() / defaultRTT0.Seconds()
		// slow start: two rounds from 100 segments stay below the BDP
		h := newHybla(mss, 100, defaultRTT0, false)
		p := cctest.NewPath(h, 10e9, base)
		var rt roundTracker
		p.Observe = rt.observe(h)
		p.Run(3*base + base/2)
		if len(rt.cwnds) < 3 {
			t.Fatalf("base %v: only %d rounds", base, len(rt.cwnds))
		}
		ratio := rt.cwnds[2] / rt.cwnds[1]
		if want := math.Exp2(rho); math.Abs(ratio-want) > 0.02*want {
			t.Errorf("base %v slow start: window ×%.2f per RTT, want 2^%.0f = %.0f", base, ratio, rho, want)
		}
		// avoidance
		h = newHybla(mss, 1000, defaultRTT0, false)
		h.ssthresh = 1000
		p = cctest.NewPath(h, 10e9, base)
		rt = roundTracker{}
		p.Observe = rt.observe(h)
		p.Run(22 * base)
		n := len(rt.cwnds) - 1
		perRTT := (rt.cwnds[n] - rt.cwnds[1]) / float64(n-1)
		if want := rho * rho; math.Abs(perRTT-want) > 0.02*want {
			t.Errorf("base %v avoidance: +%.2f segments per RTT, want rho² = %.0f", base, perRTT, want)
		}
		t.Logf("base %v: rho %.0f, slow start ×%.2f per RTT, avoidance +%.2f per RTT", base, rho, ratio, perRTT)
	}
}

// On a 50 Mbit/s, 60 ms path with a one-BDP buffer, Hybla (as Reno) keeps
// the bottleneck busy: after a halving the window is still ≥ one BDP.
func TestUtilisation(t *testing.T) {
	h, _ := New(cc.Config{MSS: mss, InitialCWnd: 10})
	p := cctest.NewPath(h, 50e6, 60*time.Millisecond)
	p.Buffer = int(p.BDPPackets()) * p.MSS
	u := p.Utilisation(10*time.Second, 40*time.Second)
	t.Logf("utilisation %.4f, mean queue %.1f pkts", u, p.MeanQueue())
	if u < 0.95 {
		t.Errorf("utilisation %.4f < 0.95", u)
	}
}

func BenchmarkOnAck(b *testing.B) {
	h := newHybla(mss, 100, defaultRTT0, false)
	h.ssthresh = 100
	rs := cc.RateSample{AckedPackets: 1, AckedBytes: mss, SRTT: 60 * time.Millisecond}
	b.ReportAllocs()
	for i := range b.N {
		rs.PriorDelivered = int64(i) * mss
		rs.TotalDelivered = int64(i+1) * mss
		rs.Inflight = h.CWnd() - mss
		h.OnSend(0, cc.SentInfo{Bytes: mss, Inflight: h.CWnd()})
		h.OnAck(0, &rs)
		if h.cwnd > 10000 {
			h.cwnd = 100
		}
	}
}

// After an RTO the window grows as Reno slow start (Linux runs cong_avoid
// in the Loss state, Hybla disabled), then Hybla resumes once repaired.
func TestGrowthAfterRTO(t *testing.T) {
	h := newHybla(mss, 40, defaultRTT0, false)
	h.OnAck(0, &cc.RateSample{SRTT: 100 * time.Millisecond})
	h.OnRTO(0)
	h.OnRTO(time.Second) // backed off: no second halving
	if h.cwnd != 1 || h.ssthresh != 20 {
		t.Fatalf("after RTOs cwnd %v ssthresh %v, want 1 and 20", h.cwnd, h.ssthresh)
	}
	for range 10 {
		h.OnSend(0, cc.SentInfo{Bytes: mss, Inflight: h.CWnd()})
		h.OnAck(0, &cc.RateSample{AckedPackets: 1, InRecovery: true})
	}
	if h.cwnd != 11 {
		t.Fatalf("cwnd %v after 10 ACKs in RTO recovery, want 11 (Reno slow start, not 2^rho)", h.cwnd)
	}
	h.OnSend(0, cc.SentInfo{Bytes: mss, Inflight: h.CWnd()})
	h.OnAck(0, &cc.RateSample{AckedPackets: 1})
	if h.lossState || h.cwnd != 20 {
		t.Fatalf("cwnd %v lossState %v after repair, want Hybla slow start (11+2^4−1) clamped to ssthresh 20", h.cwnd, h.lossState)
	}
}
