package starlink

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/profile"
)

// uniformMedianDiff is the median of |U1 - U2| for independent U uniform on
// [-a, a], as a fraction of a (2 - sqrt 2); profile validates against it.
const uniformMedianDiff = 0.5857864376269049

// maxSlotLoss caps a slot's drawn loss probability at the profile's own
// bound for random_loss, so a long tail cannot make a slot a blackout.
const maxSlotLoss = 0.5

// slotState is what a reconfiguration sets for the next slot (seed 001
// finding 15: stable rate and OWD shift between intervals).
type slotState struct {
	scale float64       // allocation factor (base and maximum)
	owd   time.Duration // extra base OWD of this direction
	// drawnOWD is the part of owd drawn on [0, owd_max] (the rest is the
	// base-RTT steps), which Config.SlotOWD replaces.
	drawnOWD time.Duration
	loss     float64 // i.i.d. loss probability of a served packet
	// clean: this slot's opening outage loses none of its arrivals
	// (outage.clean_prob).
	clean bool
}

// drifter draws each slot's state. The stable rate is drawn uniformly on
// max_rate ± a with a = median_rate_change / (2 - sqrt 2), which makes the
// median slot-to-slot change exactly median_rate_change (seed 001 gives only
// the median). The OWD shift is uniform on [0, owd_max], so base_owd stays
// the idle minimum. With rtt_steps on, the path's extra RTT moves at each
// boundary by ± a magnitude drawn from a stream seeded by the terminal's
// slot seed, so its downlink and uplink draw the same steps; each direction
// carries half of it.
type drifter struct {
	halfWidth float64 // a / max_rate
	owdMax    time.Duration
	loss      float64 // mean random loss over slots
	spread    float64 // sd of ln(slot loss factor)
	cleanProb float64 // outage.clean_prob
	steps     profile.RTTSteps
	shared    *rand.Rand
	rttLevel  time.Duration
}

func newDrifter(a *profile.Access, steps profile.RTTSteps, slotSeed uint64) drifter {
	return drifter{
		halfWidth: a.Drift.MedianRateChange / uniformMedianDiff / a.MaxRate(),
		owdMax:    a.Drift.OWDMax,
		loss:      a.RandomLoss,
		spread:    a.Drift.LossSpread,
		cleanProb: a.Outage.CleanProb,
		steps:     steps,
		shared:    rand.New(rand.NewPCG(slotSeed, 0x5eed5107)),
	}
}

// first is the state of the slot a run starts in: no drift, the mean loss.
func (d *drifter) first() slotState { return slotState{scale: 1, loss: d.loss} }

// next draws the next slot's state. The loss factor is drawn only with a
// spread, and whether the boundary is clean only with outage.clean_prob,
// so a profile without them keeps the slot stream it had before.
func (d *drifter) next(rng *rand.Rand) slotState {
	s := slotState{scale: 1 + d.halfWidth*(2*rng.Float64()-1), loss: d.loss}
	if d.owdMax > 0 {
		s.owd = time.Duration(rng.Int64N(int64(d.owdMax) + 1))
		s.drawnOWD = s.owd
	}
	if d.spread > 0 && d.loss > 0 {
		// Lognormal with mean 1: exp(sZ - s²/2).
		s.loss = min(maxSlotLoss, d.loss*math.Exp(d.spread*rng.NormFloat64()-d.spread*d.spread/2))
	}
	if d.cleanProb > 0 {
		s.clean = rng.Float64() < d.cleanProb
	}
	if d.steps.Enabled {
		m := d.steps.Magnitudes[d.shared.IntN(len(d.steps.Magnitudes))]
		if d.shared.IntN(2) == 0 {
			m = -m
		}
		if lvl := d.rttLevel + m; lvl < 0 || lvl > d.steps.MaxExcess {
			m = -m // reflect at the bounds
		}
		if lvl := d.rttLevel + m; lvl >= 0 && lvl <= d.steps.MaxExcess {
			d.rttLevel = lvl
		}
		s.owd += d.rttLevel / 2
	}
	return s
}
