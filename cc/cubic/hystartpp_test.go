package cubic

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc/reno"
)

// ppFlow runs HyStart++ slow start with short ACK trains (20 µs apart) and
// per-round RTTs from rtt; rounds 0..3 take the window 10 → 160 segments.
func ppFlow(rtt func(round int) time.Duration) (*Cubic, *flow, func(round int)) {
	o := defaults()
	o.hystart = HyStartPP
	c := newCubic(o)
	f := &flow{}
	return c, f, func(r int) { f.burst(c, 20*time.Microsecond, rtt(r)) }
}

// rttRise is a per-round RTT of testRTT raised by by in rounds [from, to).
func rttRise(from, to int, by time.Duration) func(round int) time.Duration {
	return func(r int) time.Duration {
		if r >= from && r < to {
			return testRTT + by
		}
		return testRTT
	}
}

// cssRound is the window after one CSS round from w bytes: every ACK of one
// segment adds SMSS/CSS_GROWTH_DIVISOR bytes.
func cssRound(w int) int { return w + w/testMSS*(testMSS/ppCSSGrowthDiv) }

// TestHyStartPPConservativeSlowStart: the RTT rises by 10 ms (> 6.25 ms)
// from round 4 on. CSS starts at that round's 8th sample, growth drops to
// a quarter for CSS_ROUNDS rounds (the rest of round 4 and rounds 5–8),
// and the first ACK of round 9 ends slow start with ssthresh = cwnd
// (RFC 9406 §4.2).
func TestHyStartPPConservativeSlowStart(t *testing.T) {
	c, f, round := ppFlow(rttRise(4, math.MaxInt, 10*time.Millisecond))
	for r := range 4 {
		round(r)
	}
	if c.CWnd() != 160*testMSS {
		t.Fatalf("before the rise: cwnd %.1f segments, want 160", segs(c))
	}
	round(4)
	// 7 ACKs at full rate, then CSS from the 8th on: 153 quarter steps.
	want := 167*testMSS + 153*(testMSS/ppCSSGrowthDiv)
	if c.CWnd() != want || !c.hpp.css {
		t.Fatalf("round 4: cwnd %d (css %v), want %d in CSS", c.CWnd(), c.hpp.css, want)
	}
	for r := 5; r <= 8; r++ {
		want = cssRound(c.CWnd())
		round(r)
		if c.CWnd() != want || c.ssthresh != reno.InfiniteSSThresh {
			t.Fatalf("CSS round %d: cwnd %d, want %d (×1.25); ssthresh %d", r, c.CWnd(), want, c.ssthresh)
		}
	}
	f.roundBase = f.delivered
	f.ack(c, 1, testRTT+10*time.Millisecond, false, false)
	if c.ssthresh != want || c.CWnd() != want || c.Inspect()["phase"] != reno.PhaseAvoidance {
		t.Fatalf("after %d CSS rounds: ssthresh %d cwnd %d phase %v", ppCSSRounds, c.ssthresh, c.CWnd(), c.Inspect()["phase"])
	}
	if c.Inspect()["w_max_bytes"] != 0 {
		t.Fatal("a loss-free exit must leave W_max unknown (RFC 9438 §4.10)")
	}
}

// TestHyStartPPRollback: when the RTT falls back below the CSS baseline,
// HyStart++ resumes slow start (the jitter guard of RFC 9406 §4.2).
func TestHyStartPPRollback(t *testing.T) {
	c, _, round := ppFlow(rttRise(4, 6, 10*time.Millisecond))
	for r := range 6 {
		round(r)
	}
	if !c.hpp.css {
		t.Fatal("not in CSS after two slow rounds")
	}
	w := c.CWnd()
	round(6) // RTT back to 50 ms: 7 quarter steps, then full steps
	n := w / testMSS
	if want := w + 7*(testMSS/ppCSSGrowthDiv) + (n-7)*testMSS; c.CWnd() != want || c.hpp.css {
		t.Fatalf("rollback round: cwnd %d (css %v), want %d", c.CWnd(), c.hpp.css, want)
	}
	w = c.CWnd()
	round(7)
	if c.CWnd() != w+w/testMSS*testMSS {
		t.Fatalf("after rollback the window must double: %d → %d", w, c.CWnd())
	}
}

// TestHyStartPPThreshold: a rise of 5 ms (< 6.25 ms) never enters CSS.
func TestHyStartPPThreshold(t *testing.T) {
	c, _, round := ppFlow(rttRise(1, math.MaxInt, 5*time.Millisecond))
	for r := range 7 {
		round(r)
		if c.hpp.css {
			t.Fatalf("round %d entered CSS on a 5 ms rise", r)
		}
	}
	if c.CWnd() != 10<<7*testMSS {
		t.Fatalf("cwnd %.0f segments, want %d", segs(c), 10<<7)
	}
}

// TestHyStartPPLimit: an unpaced sender counts at most L = 8 segments of a
// stretch ACK (RFC 9406 §4.2); Linux HyStart counts all of them; after the
// initial slow start HyStart++ no longer applies.
func TestHyStartPPLimit(t *testing.T) {
	for _, tt := range []struct {
		mode, want int
	}{{HyStartPP, 10 + ppUnpacedLSegment}, {HyStartLinux, 26}} {
		o := defaults()
		o.hystart = tt.mode
		c := newCubic(o)
		var f flow
		f.ack(c, 16, testRTT, false, false)
		if segs(c) != float64(tt.want) {
			t.Fatalf("mode %d: cwnd %.1f after a 16-segment ACK, want %d", tt.mode, segs(c), tt.want)
		}
		c.OnRTO(f.now)
		c.ssthresh = reno.InfiniteSSThresh
		f.ack(c, 16, testRTT, false, false)
		if segs(c) != 17 {
			t.Fatalf("mode %d after RTO: cwnd %.1f, want 17 (standard slow start)", tt.mode, segs(c))
		}
	}
}

func BenchmarkHyStartPP(b *testing.B) {
	var h hystartPP
	h.init()
	var f flow
	b.ReportAllocs()
	for i := range b.N {
		f.rs.RTT = testRTT + time.Duration(i%16)*time.Millisecond
		f.rs.TotalDelivered += testMSS
		f.rs.PriorDelivered = f.rs.TotalDelivered - 100*testMSS
		if h.onAck(&f.rs) {
			h.init()
		}
	}
}
