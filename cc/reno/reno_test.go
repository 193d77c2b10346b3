package reno

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

const (
	testMSS = 1448                  // bytes, Linux's MSS with timestamps on a 1500 B path
	testRTT = 50 * time.Millisecond // a fixed round-trip time for synthetic ACK streams
)

// acker drives a controller with a synthetic ACK stream: one ACK per
// full-sized segment, one window of ACKs per round trip, spread evenly over
// the round trip. It keeps the connection totals a transport would report.
type acker struct {
	now       time.Duration
	delivered int64
	rs        cc.RateSample
}

// ack delivers one ACK for n segments with the given recovery flags.
func (a *acker) ack(c cc.Controller, n int, newEpisode, inRecovery bool) {
	a.rs = cc.RateSample{
		AckedBytes:     n * testMSS,
		AckedPackets:   n,
		RTT:            testRTT,
		MinRTT:         testRTT,
		SRTT:           testRTT,
		PriorDelivered: a.delivered,
		NewLossEpisode: newEpisode,
		InRecovery:     inRecovery,
	}
	a.delivered += int64(n * testMSS)
	a.rs.TotalDelivered = a.delivered
	c.OnAck(a.now, &a.rs)
}

// round acknowledges one window (the window at the round's start), one
// segment per ACK, spread over one RTT.
func (a *acker) round(c cc.Controller, inRecovery bool) {
	n := c.CWnd() / testMSS
	start := a.now
	for i := range n {
		a.now = start + time.Duration(i+1)*testRTT/time.Duration(n)
		a.ack(c, 1, false, inRecovery)
	}
}

// loseN marks the start of a loss episode on an ACK that acknowledges n
// segments.
func (a *acker) loseN(c cc.Controller, n int) { a.ack(c, n, true, true) }

func segs(c cc.Controller) float64 { return float64(c.CWnd()) / testMSS }

func TestSlowStartDoublesPerRound(t *testing.T) {
	r := newReno(testMSS, 10*testMSS, InfiniteSSThresh)
	var a acker
	want := 10
	for k := 1; k <= 8; k++ {
		a.round(r, false)
		want *= 2
		if got := r.CWnd(); got != want*testMSS {
			t.Fatalf("round %d: cwnd %d segments, want %d (doubling per RTT)", k, got/testMSS, want)
		}
	}
}

func TestAvoidanceGrowsOneMSSPerRound(t *testing.T) {
	const w0, rounds = 100, 50
	r := newReno(testMSS, w0*testMSS, w0*testMSS)
	var a acker
	for range rounds {
		a.round(r, false)
	}
	if got, want := r.CWnd(), (w0+rounds)*testMSS; got != want {
		t.Fatalf("cwnd after %d rounds = %.2f segments, want %d (one MSS per RTT)", rounds, segs(r), want/testMSS)
	}
}

func TestLossEpisodeHalvesOnceAndFreezesInRecovery(t *testing.T) {
	r := newReno(testMSS, 100*testMSS, 100*testMSS)
	var a acker
	a.loseN(r, 1)
	if r.CWnd() != 50*testMSS || r.ssthresh != 50*testMSS {
		t.Fatalf("after loss: cwnd %d ssthresh %d, want both 50 MSS", r.CWnd(), r.ssthresh)
	}
	// A second episode flag inside recovery is a transport bug, but the
	// recovery ACKs must not grow the window.
	for range 3 {
		a.round(r, true)
	}
	if r.CWnd() != 50*testMSS {
		t.Fatalf("cwnd grew in recovery to %.1f segments", segs(r))
	}
	if got := r.Inspect()["phase"]; got != PhaseRecovering {
		t.Fatalf("phase in recovery = %v, want %d", got, PhaseRecovering)
	}
	a.round(r, false) // recovery over: avoidance resumes
	if r.CWnd() != 51*testMSS {
		t.Fatalf("cwnd after recovery round = %.1f, want 51 segments", segs(r))
	}
	if got := r.Inspect()["phase"]; got != PhaseAvoidance {
		t.Fatalf("phase = %v, want %d", got, PhaseAvoidance)
	}
}

func TestLossFloorIsTwoSegments(t *testing.T) {
	r := newReno(testMSS, 3*testMSS, InfiniteSSThresh)
	var a acker
	a.loseN(r, 1)
	if r.CWnd() != 2*testMSS {
		t.Fatalf("cwnd = %d, want 2 MSS floor", r.CWnd())
	}
}

func TestRTOCollapsesAndSlowStartsToSSThresh(t *testing.T) {
	r := newReno(testMSS, 100*testMSS, 100*testMSS)
	var a acker
	r.OnRTO(a.now)
	if r.CWnd() != testMSS || r.ssthresh != 50*testMSS {
		t.Fatalf("after RTO: cwnd %d ssthresh %d, want 1 and 50 MSS", r.CWnd()/testMSS, r.ssthresh/testMSS)
	}
	r.OnRTO(a.now) // backed-off timer, no progress: ssthresh stays
	if r.ssthresh != 50*testMSS {
		t.Fatalf("second RTO without progress changed ssthresh to %d MSS", r.ssthresh/testMSS)
	}
	// Slow start from one segment: 1, 2, 4, ..., 32, then capped at 50.
	want := []int{2, 4, 8, 16, 32, 50, 51}
	for i, w := range want {
		a.round(r, i < 2) // the first rounds repair the timeout
		if r.CWnd() != w*testMSS {
			t.Fatalf("round %d after RTO: cwnd %.1f segments, want %d", i+1, segs(r), w)
		}
	}
}

func TestRTOInFastRecoveryKeepsSSThresh(t *testing.T) {
	r := newReno(testMSS, 80*testMSS, 80*testMSS)
	var a acker
	a.loseN(r, 1) // ssthresh 40
	r.OnRTO(a.now)
	if r.ssthresh != 40*testMSS || r.CWnd() != testMSS {
		t.Fatalf("RTO in recovery: ssthresh %d cwnd %d MSS, want 40 and 1", r.ssthresh/testMSS, r.CWnd()/testMSS)
	}
}

// TestInvariants drives random event sequences and checks cwnd ≥ 1 MSS,
// ssthresh ≥ 2 MSS and no growth inside fast recovery.
func TestInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for trial := range 200 {
		r := newReno(testMSS, 10*testMSS, InfiniteSSThresh)
		var a acker
		inRec := false
		for step := range 500 {
			a.now += time.Millisecond
			before := r.CWnd()
			switch x := rng.IntN(100); {
			case x < 2:
				r.OnRTO(a.now)
				inRec = true
			case x < 5 && !inRec:
				a.loseN(r, 1)
				inRec = true
			case x < 15:
				inRec = false
				a.ack(r, 1+rng.IntN(3), false, false)
			default:
				a.ack(r, 1+rng.IntN(3), false, inRec)
				if r.ep.Phase() == Recovery && r.CWnd() != before {
					t.Fatalf("trial %d step %d: cwnd changed in fast recovery", trial, step)
				}
			}
			if r.CWnd() < testMSS || r.ssthresh < 2*testMSS {
				t.Fatalf("trial %d step %d: cwnd %d ssthresh %d below floor", trial, step, r.CWnd(), r.ssthresh)
			}
		}
	}
}

func TestRegistry(t *testing.T) {
	c, err := cc.New("reno", cc.Config{MSS: testMSS, InitialCWnd: 10})
	if err != nil {
		t.Fatal(err)
	}
	if c.CWnd() != 10*testMSS || c.PacingRate() != 0 {
		t.Fatalf("cwnd %d pacing %v, want 10 MSS unpaced", c.CWnd(), c.PacingRate())
	}
	in := c.(cc.Inspector).Inspect()
	if _, ok := in["ssthresh_bytes"]; ok || in["phase"] != PhaseSlowStart {
		t.Fatalf("initial inspect %v: want slow start and no ssthresh", in)
	}
	if _, err := cc.New("reno", cc.Config{Params: map[string]float64{"beta": 0.5}}); err == nil ||
		!strings.Contains(err.Error(), "beta") {
		t.Fatalf("unknown parameter accepted: %v", err)
	}
	if _, err := New(cc.Config{}); err == nil {
		t.Fatal("New accepted a zero MSS")
	}
}

func BenchmarkOnAck(b *testing.B) {
	r := newReno(testMSS, 100*testMSS, 100*testMSS)
	rs := cc.RateSample{AckedBytes: testMSS, AckedPackets: 1, RTT: testRTT}
	b.ReportAllocs()
	for i := range b.N {
		rs.TotalDelivered = int64(i) * testMSS
		r.OnAck(time.Duration(i)*time.Microsecond, &rs)
		if r.cwnd > 10000*testMSS {
			r.cwnd = 100 * testMSS
		}
	}
}
