package sage

import (
	"math"

	"github.com/leolab/leolab/cc/monitor"
)

// State constants. Ours (see the package doc) unless cited.
const (
	// NumFeatures is the state of one monitor period.
	NumFeatures = 8
	// Window is the number of periods the GRU reads per decision, oldest
	// first, from a zero hidden state (the same in training and
	// inference).
	Window = 10
	// caps keep every feature within a small range for the networks.
	delayCap, cwndCap, ratioCap = 4, 4, 4
	// ActionMax bounds the action: cwnd ← cwnd·2^a, |a| ≤ 2
	// (config-rl-offline.yaml action_version 9, action_max 2.0).
	ActionMax = 2
)

// Features of one period.
const (
	fThr      = iota // thr/max_thr (the flow's largest period)
	fLoss            // lost/(acked + lost) bytes
	fRTTRatio        // min_rtt/avg_rtt
	fDelay           // (avg_rtt − min_rtt)/min_rtt, capped
	fCWnd            // cwnd/(max_thr·min_rtt), capped
	fThrRatio        // thr/previous thr, capped (sage.cc dr/pre_dr)
	fAction          // the previous period's log2 window ratio / ActionMax
	fInflight        // inflight/cwnd (sage.cc cwnd_unacked_rate)
)

// Features turns monitor periods into the policy's input. It is exported
// because learn/sage computes the same features for heuristic runs.
type Features struct {
	peak    monitor.Peak
	prevThr float64
	hist    [Window * NumFeatures]float32
}

// Observe folds period iv (last: the log2 window ratio applied after the
// previous period) into the window of features, shifting it by one.
func (f *Features) Observe(iv *monitor.Interval, last float64) {
	thr, ratio := f.peak.Observe(iv)
	avg, minRTT := iv.AvgRTT(), iv.MinRTT
	var s [NumFeatures]float64
	s[fThr] = ratio
	s[fCWnd] = min(iv.CWndBDP(f.peak.Max()), cwndCap)
	s[fLoss] = iv.LossFraction()
	if avg > 0 && minRTT > 0 {
		s[fRTTRatio] = min(float64(minRTT)/float64(avg), 1)
	}
	s[fDelay] = min(iv.QueueDelay(), delayCap)
	if f.prevThr > 0 {
		s[fThrRatio] = min(thr/f.prevThr, ratioCap)
	}
	f.prevThr = thr
	s[fAction] = max(-1, min(1, last/ActionMax))
	if iv.CWnd > 0 {
		s[fInflight] = min(float64(iv.Inflight)/float64(iv.CWnd), ratioCap)
	}
	copy(f.hist[:], f.hist[NumFeatures:])
	for i, v := range s {
		f.hist[(Window-1)*NumFeatures+i] = float32(v)
	}
}

// State is the policy's input: Window periods of NumFeatures, oldest
// first (valid until the next Observe).
func (f *Features) State() []float32 { return f.hist[:] }

// MaxThr is the largest period throughput seen, bytes/s.
func (f *Features) MaxThr() float64 { return f.peak.Max() }

// Reward constants (sage.cc, single-flow reward).
const (
	rewardScale   = 25  // 25·(…)²
	lossPenalty   = 2   // thr − 2·loss
	rttRateSwitch = 0.8 // the RTT factor is 1 once min_rtt/rtt ≥ 0.8
	// xFloor bounds (thr − 2·loss)/bw below (ours): sage.cc sums loss
	// over a moving window, ours is one period's, in which RACK may mark
	// a whole overshooting window lost at many times the link's rate;
	// such outliers (rewards of −10⁴ in our first pool) would swamp the
	// critic's regression, as in cc/orca's reward floor.
	xFloor = -1
)

// Reward is Sage's single-flow reward of a period with capacity bw
// (bytes/s; the training environment knows it): with x = (thr −
// 2·loss)/bw, sign(x)·25·x² times min_rtt/avg_rtt, or times 1 when that
// ratio is at least 0.8 (sage.cc; thr is capped at 0.9·bw when above bw,
// as there; x floored at −1, ours).
// 0 without a capacity.
func Reward(iv *monitor.Interval, bw float64) float64 {
	if bw <= 0 {
		return 0
	}
	thr := iv.Throughput()
	if thr > bw {
		thr = 0.9 * bw
	}
	x := max((thr-lossPenalty*iv.LossRate())/bw, xFloor)
	rr := 0.0
	if avg := iv.AvgRTT(); avg > 0 && iv.MinRTT > 0 {
		rr = float64(iv.MinRTT) / float64(avg)
	}
	if rr >= rttRateSwitch {
		rr = 1
	}
	return math.Copysign(rewardScale*x*x, x) * rr
}
