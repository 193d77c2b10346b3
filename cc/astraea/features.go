package astraea

import (
	"math"
	"time"

	"github.com/leolab/leolab/cc/monitor"
)

// State and reward constants. Ours (see the package doc): the paper's
// abstract names the ingredients, not these values.
const (
	// NumFeatures is the state of one monitor period; History periods
	// are stacked into the actor's input, oldest first.
	NumFeatures = 6
	History     = 5
	StateDim    = NumFeatures * History
	// queueScale normalises the flow's packets in the queue: a few
	// packets per flow is where a delay-based controller settles (Vegas
	// keeps α..β = 2..4, Brakmo and Peterson 1995).
	queueScale = 10
	// caps keep every feature within a small range for the networks.
	delayCap, queueCap, cwndCap = 4, 10, 4
	// delayMargin: RTTs up to 1.25·min_rtt are not penalised (Orca's
	// delay_margin_coef, Soheil-ab/Orca params.json).
	delayMargin = 1.25
	// lossWeight weighs the loss fraction against utilisation;
	// fairWeight the flow's relative deviation from the mean rate of
	// the active flows; rewardFloor bounds a period's reward below.
	lossWeight  = 2
	fairWeight  = 0.5
	rewardFloor = -1
	// ActiveWindow: a flow counts in the fairness term while its latest
	// period ended this recently (a few periods).
	ActiveWindow = 100 * time.Millisecond
)

// Features of one period.
const (
	fThr    = iota // thr/max_thr (the flow's own largest period)
	fDelay         // (avg_rtt − min_rtt)/min_rtt
	fLoss          // lost/(acked + lost) bytes
	fQueue         // own packets queued, cwnd·(1 − min_rtt/avg_rtt)/mss, over queueScale
	fCWnd          // cwnd/(max_thr·min_rtt)
	fAction        // the previous action
)

// features turns monitor periods into the actor's input and the local
// reward.
type features struct {
	peak monitor.Peak
	hist [StateDim]float32
}

// observe folds period iv (mss: segment size; last: the previous action)
// into the state and returns the period's local reward: its throughput
// over the flow's largest, scaled by the delay factor, less the loss
// term. The training environment replaces it by FairReward.
func (f *features) observe(iv *monitor.Interval, mss int, last float32) float32 {
	_, ratio := f.peak.Observe(iv)
	avg, minRTT := iv.AvgRTT(), iv.MinRTT
	var s [NumFeatures]float64
	s[fThr] = ratio
	s[fCWnd] = min(iv.CWndBDP(f.peak.Max()), cwndCap)
	s[fDelay] = min(iv.QueueDelay(), delayCap)
	if minRTT > 0 && avg > minRTT {
		s[fQueue] = min(float64(iv.CWnd)/float64(mss)*(1-float64(minRTT)/float64(avg))/queueScale, queueCap)
	}
	lf := iv.LossFraction()
	s[fLoss] = lf
	s[fAction] = float64(last)
	copy(f.hist[:], f.hist[NumFeatures:])
	for i, v := range s {
		f.hist[StateDim-NumFeatures+i] = float32(v)
	}
	if f.peak.Max() == 0 {
		return 0
	}
	return float32(max(ratio*DelayFactor(minRTT, avg)-lossWeight*lf, rewardFloor))
}

// state is the actor's input.
func (f *features) state() []float32 { return f.hist[:] }

// DelayFactor is 1 while rtt ≤ 1.25·min_rtt and 1.25·min_rtt/rtt above.
func DelayFactor(minRTT, rtt time.Duration) float64 {
	return monitor.DelayFactor(delayMargin, minRTT, rtt)
}

// FairReward is the fairness-aware reward of one flow's period in a
// multi-flow episode: the bottleneck's utilisation, the sum of the
// active flows' recent throughputs (active, this flow's included) over
// capacity (bytes/s; the training environment knows it), times the
// flow's delay factor, less the loss term and the fairness term
// fairWeight·|thr/mean − 1| (capped at 1) over the active flows' mean
// throughput; floored at −1. With one active flow the fairness term is 0.
// own is the flow's recent throughput (one of active).
func FairReward(iv *monitor.Interval, own float64, active []float64, capacity float64) float32 {
	sum := 0.0
	for _, v := range active {
		sum += v
	}
	if capacity <= 0 || len(active) == 0 {
		return 0
	}
	r := min(sum/capacity, 1) * DelayFactor(iv.MinRTT, iv.AvgRTT())
	r -= lossWeight * iv.LossFraction()
	if mean := sum / float64(len(active)); mean > 0 {
		r -= fairWeight * min(math.Abs(own/mean-1), 1)
	}
	return float32(max(r, rewardFloor))
}
