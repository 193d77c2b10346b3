package starlink

import (
	"math"
	"time"

	"github.com/leolab/leolab/profile"
)

// aqm decides, for each arriving packet, whether to drop it early.
//
//   - "linear" (UL, seed 001 finding 9): p = max_prob x (q - min)/(max - min),
//     rising on past max_packets, capped at 1; q is the flow's own queue
//     when per_flow (finding 19: loss isolated).
//   - "adaptive" (DL, findings 10-11): RED on the shared buffer,
//     p = max_p x (q - min)/(max - min), whose max_p adapts every
//     adapt_interval as in Adaptive RED (Floyd, Gummadi & Shenker 2001):
//     multiplied by adapt_up while the mean queue is above target_high x
//     limit, by adapt_down while below target_low x limit, within
//     [max_prob_floor, max_prob_cap]. The queue may approach the limit
//     before max_p catches up (lenient), some drops happen far below 500
//     packets, and the drop rate follows the load. Because the decision is
//     made per arrival on the shared queue, every flow sees the same drop
//     probability: loss is coupled (finding 18).
type aqm struct {
	cfg        profile.AQM
	maxP       float64
	span       float64 // max_packets - min_packets
	lo, hi     float64 // adaptation band, packets
	sum        float64 // queue samples this interval
	samples    int
	nextAdjust time.Duration
	// avg is RED's averaged queue (profile.AQM.AvgTime > 0), updated at
	// each arrival at avgAt.
	avg   float64
	avgAt time.Duration
}

func newAQM(cfg profile.AQM, limit int) aqm {
	return aqm{
		cfg:        cfg,
		maxP:       cfg.MaxProb,
		span:       float64(cfg.MaxPackets - cfg.MinPackets),
		lo:         cfg.TargetLow * float64(limit),
		hi:         cfg.TargetHigh * float64(limit),
		nextAdjust: cfg.AdaptInterval,
	}
}

// queue is the queue the AQM acts on for an arrival at now that finds q
// packets: q itself, or RED's average of it with time constant avg_time.
// The weight 1-exp(-dt/avg_time) of the new sample is RED's w_q for an
// arrival dt after the previous one; over idle time the average decays
// toward the (empty) queue, as RED's idle correction intends.
func (a *aqm) queue(now time.Duration, q float64) float64 {
	if a.cfg.AvgTime <= 0 {
		return q
	}
	w := -math.Expm1(-float64(now-a.avgAt) / float64(a.cfg.AvgTime))
	a.avg += w * (q - a.avg)
	a.avgAt = now
	return a.avg
}

// prob is the drop probability for an arrival that finds q packets (or,
// with avg_time, an average of q packets).
func (a *aqm) prob(q float64) float64 {
	x := (q - float64(a.cfg.MinPackets)) / a.span
	if x <= 0 {
		return 0
	}
	switch a.cfg.Mode {
	case "linear":
		return min(1, a.cfg.MaxProb*x)
	case "adaptive":
		return a.maxP * min(1, x)
	}
	return 0
}

// frame samples the shared queue (or, with sojourn, its delay estimate)
// once per frame and adapts max_p.
func (a *aqm) frame(now time.Duration, q float64) {
	if a.cfg.Mode != "adaptive" {
		return
	}
	a.sum += q
	a.samples++
	if now < a.nextAdjust {
		return
	}
	a.nextAdjust = now + a.cfg.AdaptInterval
	mean := a.sum / float64(a.samples)
	a.sum, a.samples = 0, 0
	switch {
	case mean > a.hi:
		a.maxP = min(a.cfg.MaxProbCap, a.maxP*a.cfg.AdaptUp)
	case mean < a.lo:
		a.maxP = max(a.cfg.MaxProbFloor, a.maxP*a.cfg.AdaptDown)
	}
}
