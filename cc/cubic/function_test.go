package cubic

import (
	"math"
	"testing"
	"time"
)

// TestUpdateWorkedExample evaluates bictcp_update by hand: W_max = 1000,
// an epoch starting at 700 segments, min_rtt 0. K = ∛(300/0.4) = 9.086 s;
// at t = 0 the target equals cwnd (cnt = 100·cwnd, "very small increment");
// at t = K it is W_max (cnt = 700/300); one second past K with cwnd at
// W_max the target is W_max + C, so cnt = 1000/0.4.
func TestUpdateWorkedExample(t *testing.T) {
	f := function{wMax: 1000}
	f.update(0, 700*testMSS, testMSS, testMSS, 0, false)
	k := math.Cbrt(300 / 0.4)
	if math.Abs(f.k-k) > 1e-9 || f.origin != 1000 || f.cnt != 100*700 {
		t.Fatalf("t=0: K %v origin %v cnt %v; want %v, 1000, 70000", f.k, f.origin, f.cnt, k)
	}
	atK := time.Duration(k * float64(time.Second))
	f.update(atK, 700*testMSS, testMSS, testMSS, 0, false)
	if math.Abs(f.cnt-700.0/300) > 1e-6 {
		t.Fatalf("t=K: cnt %v, want 2.333", f.cnt)
	}
	f.update(atK+time.Second, 1000*testMSS, testMSS, testMSS, 0, false)
	if math.Abs(f.cnt-1000/0.4) > 1e-3 {
		t.Fatalf("t=K+1s: cnt %v, want 2500", f.cnt)
	}
}

// TestUpdateCaps: without W_max cnt is at most 20 (5%/RTT); it is never
// below 2 (1.5×/RTT); an unchanged window is re-evaluated only after HZ/32.
func TestUpdateCaps(t *testing.T) {
	var f function
	f.update(0, 100*testMSS, testMSS, testMSS, testRTT, false)
	if f.cnt != maxCntNoWMax || f.origin != 100 || f.k != 0 {
		t.Fatalf("no W_max: cnt %v origin %v K %v; want 20, 100, 0", f.cnt, f.origin, f.k)
	}
	g := function{wMax: 10000}
	g.update(0, 100*testMSS, testMSS, testMSS, 20*time.Second, false) // far past K
	if g.cnt != minCnt {
		t.Fatalf("steep target: cnt %v, want %d", g.cnt, minCnt)
	}
	before := g.cnt
	g.wMax = 0 // would cap cnt at 20 if re-evaluated
	g.update(recalcInterval, 100*testMSS, testMSS, testMSS, 20*time.Second, false)
	if g.cnt != before {
		t.Fatal("cnt re-evaluated within HZ/32 at an unchanged window")
	}
}

// TestUpdateFriendlyCatchUp: the Reno estimate grows one segment per
// cwnd·15/8 ACKed segments; once ahead by d segments cnt ≤ cwnd/d.
func TestUpdateFriendlyCatchUp(t *testing.T) {
	f := function{wMax: 200}
	w := 140 * testMSS
	f.update(0, w, testMSS, testMSS, 0, true) // epoch: reno = cwnd
	// Counted in bytes: two increments need more than 2·cwnd·15/8 bytes.
	acks := 2 * (w * renoAckScale / 8) / testMSS
	for range acks - 1 { // within HZ/32: only counted
		f.update(time.Millisecond, w, testMSS, testMSS, 0, true)
	}
	// Re-evaluated at 40 ms: the cubic target is 200 − 0.4·(5.31−0.04)³ ≈
	// 141.5 segments (cnt ≈ 93), so the Reno cap decides.
	f.update(40*time.Millisecond, w, testMSS, testMSS, 0, true)
	if f.renoCWnd != w+2*testMSS {
		t.Fatalf("reno estimate %d segments after %d ACKs, want %d", f.renoCWnd/testMSS, acks, 142)
	}
	if f.cnt != 70 { // 140 / (142−140)
		t.Fatalf("cnt %v, want 70", f.cnt)
	}
}

// TestFollowsCubicCurve is the acceptance test: after one loss at W_max =
// 1000 segments, with one window of ACKs per 50 ms RTT, cwnd follows
// W(t) = C(t−K)³ + W_max within ±10% for t ∈ [0, 2K] (RFC 9438 eq. 1–2).
func TestFollowsCubicCurve(t *testing.T) {
	const wMax = 1000
	var f flow
	c := inAvoidance(wMax, &f)
	f.loseN(c, 1)
	tLoss := f.now
	k := math.Cbrt(wMax * (1 - rfcBeta) / rfcC)
	if got := segs(c); math.Abs(got/(wMax*rfcBeta)-1) > betaTol {
		t.Fatalf("cwnd after loss %.1f segments, want β·W_max = %.1f", got, wMax*rfcBeta)
	}
	f.round(c, true) // one round of fast recovery
	worst, rounds := 0.0, 0
	for ts := 0.0; ts <= 2*k; ts = (f.now - tLoss).Seconds() {
		want := rfcC*math.Pow(ts-k, 3) + wMax
		rel := segs(c)/want - 1
		if math.Abs(rel) > math.Abs(worst) {
			worst = rel
		}
		if math.Abs(rel) > 0.10 {
			t.Fatalf("t = %.2f s: cwnd %.1f segments, W(t) = %.1f (%.1f%% off)", ts, segs(c), want, 100*rel)
		}
		f.round(c, false)
		rounds++
	}
	// K from the rounded β: within 0.1% of ∛(W_max(1−β)/C).
	if got := c.Inspect()["k_s"]; math.Abs(got/k-1) > 1e-3 {
		t.Fatalf("K = %v s, want ∛(W_max(1−β)/C) = %v s", got, k)
	}
	if want := rfcC*k*k*k + wMax; math.Abs(segs(c)/want-1) > 0.10 {
		t.Fatalf("at 2K cwnd is %.1f segments, want ≈ W(2K) = %.0f", segs(c), want)
	}
	t.Logf("K = %.3f s, %d rounds, worst deviation %+.2f%%, cwnd at 2K %.0f segments", k, rounds, 100*worst, segs(c))
}

// TestRenoFriendlyRegion: with a small W_max and a short RTT the cubic
// curve is slower than Reno, so cwnd follows the Reno-friendly estimate
// W_est = β·W_max + α·rounds with Linux's α = 8/15 segment per RTT (RFC
// 9438 §4.3, α_cubic = 3(1−β)/(1+β) ≈ 0.53); without it cwnd stays on the
// cubic curve below W_max.
func TestRenoFriendlyRegion(t *testing.T) {
	const wMax, rounds = 20, 100
	rtt := 10 * time.Millisecond
	for _, friendly := range []bool{true, false} {
		var f flow
		c := inAvoidance(wMax, &f)
		c.opt.friendliness = friendly
		f.loseN(c, 1)
		tLoss := f.now
		f.roundBase = f.delivered
		for range rounds {
			n := c.CWnd() / testMSS
			start := f.now
			f.roundBase = f.delivered
			for i := range n {
				f.now = start + time.Duration(i+1)*rtt/time.Duration(n)
				f.ack(c, 1, rtt, false, false)
			}
		}
		var want float64
		if friendly {
			want = wMax*rfcBeta + 8.0/15*rounds
		} else {
			ts := (f.now - tLoss).Seconds()
			want = rfcC*math.Pow(ts-math.Cbrt(wMax*(1-rfcBeta)/rfcC), 3) + wMax
		}
		if rel := segs(c)/want - 1; math.Abs(rel) > 0.10 {
			t.Fatalf("friendliness %v: cwnd %.1f segments after %d rounds, want %.1f", friendly, segs(c), rounds, want)
		}
	}
}
