package qdisc

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
)

// Adaptive RED (Floyd, Gummadi & Shenker, "Adaptive RED: An Algorithm for
// Increasing the Robustness of RED's Active Queue Management", 2001).
const (
	AREDInterval    = 500 * time.Millisecond // §4: max_p adapted every 0.5 s
	AREDDelayTarget = 5 * time.Millisecond   // §5: target queueing delay for min_th
	aredBeta        = 0.9                    // §4: decrease factor
	aredAlphaMax    = 0.01                   // §4: alpha = min(0.01, max_p/4)
	aredMaxPHigh    = 0.5                    // §4: max_p stays within [0.01, 0.5]
	aredMaxPLow     = 0.01
)

// aredState adapts a RED queue's max_p (§4, Fig. 5): every interval, if
// avg is above the target band and max_p <= 0.5, max_p += alpha; if below
// and max_p >= 0.01, max_p *= beta. The band is [min_th + 0.4(max_th −
// min_th), min_th + 0.6(max_th − min_th)].
type aredState struct {
	interval time.Duration
	next     time.Duration
}

func (a *aredState) tick(now time.Duration, r *RED) {
	for a.next <= now {
		a.next += a.interval
		pr := &r.params
		lo := pr.minTh + 0.4*(pr.maxTh-pr.minTh)
		hi := pr.minTh + 0.6*(pr.maxTh-pr.minTh)
		switch {
		case r.avg > hi && pr.maxP <= aredMaxPHigh:
			pr.maxP += min(aredAlphaMax, pr.maxP/4)
		case r.avg < lo && pr.maxP >= aredMaxPLow:
			pr.maxP *= aredBeta
		}
	}
}

// NewARED returns Adaptive RED with §5's automatic parameters for a link of
// rateBps: C = rate in MTU packets/s, w_q = 1 − exp(−1/C), min_th =
// max(5, delay_target·C/2), max_th = 3·min_th, gentle mode, max_p from 0.1
// (Linux sch_red's adaptative mode starts there too).
func NewARED(rateBps float64, limit link.QueueLimit, ecn bool, rng *rand.Rand, drop link.DropFunc) *RED {
	c := rateBps / (8 * 1500)
	minTh := max(5, AREDDelayTarget.Seconds()*c/2)
	r := NewRED(minTh, 3*minTh, 1-math.Exp(-1/c), 0.1, true, rateBps, limit, ecn, rng, drop)
	r.adapt = &aredState{interval: AREDInterval, next: AREDInterval}
	return r
}
