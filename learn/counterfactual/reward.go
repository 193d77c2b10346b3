package counterfactual

import (
	"time"

	"github.com/leolab/leolab/learn"
)

// Outcome is one gain's measured result at a decision and its reward.
type Outcome struct {
	Gain   float64
	Window Window
	// Throughput b: bits/s delivered over the window; Retransmits τ:
	// segments retransmitted per pool interval (the unit of τ_ref);
	// QueueDelay qd: mean RTT of the window over the row's RTT_min.
	Throughput  float64
	Retransmits float64
	QueueDelay  time.Duration
	// U is the hybrid utilization max(U_rate, U_delay) of the window
	// (eqs. 9–11 on the measured b and qd).
	U      float64
	Reward float64
	// Spread is the sample standard deviation of the reward over the
	// replays averaged into it (Options.Replays; 0 for one replay).
	Spread float64
}

// Score is eq. 16 on what the window measured, against the references
// of the decision's pool row (its B_ref, τ_ref, RTT_min, q_ref):
//
//	R = b/B_ref − λ1·τ/τ_ref − λ2·U·max(g−1, 0)
//
// with b, τ and U measured, not the surrogate's: b/B_ref is not capped at
// 1 (a probe that finds bandwidth earns it), and U counts the queue the
// gain built (RTT above RTT_min, eq. 10), so the probe penalty grows with
// the delay a gain causes. interval is the pool's interval (τ_ref counts
// retransmissions per interval). A zero reference gives a zero ratio, as
// the references do (learn.ComputeRefs).
func Score(g float64, w Window, r learn.Refs, interval time.Duration, p learn.Params) Outcome {
	o := Outcome{Gain: g, Window: w}
	d := w.Duration().Seconds()
	if d > 0 {
		o.Throughput = float64(w.Delivered()) * 8 / d
		o.Retransmits = float64(w.Retransmits()) * interval.Seconds() / d
	}
	minRTT := time.Duration(r.RTTMin * float64(time.Second))
	if minRTT <= 0 {
		minRTT = w.Start.MinRTT // no RTT logged in the row's window: BBR's min_rtt
	}
	if m := w.MeanRTT(); m > 0 && minRTT > 0 {
		o.QueueDelay = max(m-minRTT, 0)
	}
	credit := ratio(o.Throughput, r.BRef)
	o.U = max(min(credit, 1), min(ratio(o.QueueDelay.Seconds(), r.QueueRef), 1))
	o.Reward = credit - p.Lambda1*o.Retransmits/r.TauRef - p.Lambda2*o.U*max(g-1, 0)
	return o
}

// ratio is x/ref, 0 when ref is not positive.
func ratio(x, ref float64) float64 {
	if ref <= 0 {
		return 0
	}
	return x / ref
}
