package qdisc

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
)

// TestPIETracksTarget: an unresponsive load of 1.5× the link rate. The
// queue can only be steady when a third of the arrivals are dropped
// (p* = 1 − 1/1.5), and PIE's integral term (alpha·(qdelay − QDELAY_REF),
// RFC 8033 §4.2) only rests when qdelay = QDELAY_REF. So drop_prob must
// settle at 1/3 and the sojourn at 15 ms. Tolerances: the drop probability
// within ±0.02, the largest step PIE allows at p ≥ 0.1 ("cap drop
// adjustment"); the mean sojourn within ±3 ms, the delay change one 2%
// step in p makes over a few T_UPDATEs at this load (0.02 × 1.5 × 833
// pkt/s × 1.2 ms ≈ 0.03 ms per ms, so ~0.5 ms per T_UPDATE, over the
// controller's settling of a few updates).
func TestPIETracksTarget(t *testing.T) {
	const rate = rate12
	var q *PIE
	b := newBench(t, rate, func(drop link.DropFunc) link.Queue {
		q = NewPIE(PIETarget, PIETupdate, PIEAlpha, PIEBeta, PIEMaxBurst, link.QueueLimit{Packets: PIELimit}, false, rng(1), drop)
		return q
	}, cbr(0, 1500, 1.5*rate))
	var sumP float64
	var n int
	step := 10 * time.Millisecond
	for at := step; at <= 60*time.Second; at += step {
		b.run(at)
		if at > 20*time.Second {
			sumP += q.DropProb()
			n++
		}
	}
	meanP := sumP / float64(n)
	_, all, _ := windowMins(b.srcs, 20*time.Second, time.Second, 1500, rate)
	qd := mean(all)
	t.Logf("PIE: mean drop_prob %.4f (want %.4f), mean sojourn %v (target %v)", meanP, 1-1/1.5, qd, PIETarget)
	if math.Abs(meanP-(1-1/1.5)) > 0.02 {
		t.Errorf("mean drop probability %.4f, want %.4f ± 0.02", meanP, 1-1/1.5)
	}
	if d := qd - PIETarget; d < -3*time.Millisecond || d > 3*time.Millisecond {
		t.Errorf("mean sojourn %v, want %v ± 3ms", qd, PIETarget)
	}
}

// TestPIEAutoTuning checks RFC 8033 §4.2's scaling of the update by the
// current probability: from p = 0, a 10 ms excess raises p by
// alpha·0.010/2048 in one update (beta's term is zero at a steady delay).
func TestPIEAutoTuning(t *testing.T) {
	pr := pieParams{qdelayRef: PIETarget, tUpdate: PIETupdate, alpha: PIEAlpha, beta: PIEBeta, maxBurst: PIEMaxBurst}
	for _, c := range []struct {
		p0, div float64
	}{{0, 2048}, {0.000005, 512}, {0.00005, 128}, {0.0005, 32}, {0.005, 8}, {0.05, 2}, {0.5, 1}} {
		v := pieVars{dropProb: c.p0, qdelay: 25 * time.Millisecond, qdelayOld: 25 * time.Millisecond}
		v.calculateDropProb(&pr)
		want := c.p0 + min(PIEAlpha*0.010/c.div, 0.02)
		if math.Abs(v.dropProb-want) > 1e-12 {
			t.Errorf("p0 %g: p = %g, want %g", c.p0, v.dropProb, want)
		}
	}
}
