package starlink

import (
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/profile"
)

// uniformMedianDiff is the median of |U1 - U2| for independent U uniform on
// [-a, a], as a fraction of a (2 - sqrt 2); profile validates against it.
const uniformMedianDiff = 0.5857864376269049

// slotState is what a reconfiguration sets for the next slot (seed 001
// finding 15: stable rate and OWD shift between intervals).
type slotState struct {
	scale float64       // allocation factor (base and maximum)
	owd   time.Duration // extra base OWD of this direction
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
	steps     profile.RTTSteps
	shared    *rand.Rand
	rttLevel  time.Duration
}

func newDrifter(a *profile.Access, steps profile.RTTSteps, slotSeed uint64) drifter {
	return drifter{
		halfWidth: a.Drift.MedianRateChange / uniformMedianDiff / a.MaxRate(),
		owdMax:    a.Drift.OWDMax,
		steps:     steps,
		shared:    rand.New(rand.NewPCG(slotSeed, 0x5eed5107)),
	}
}

// next draws the next slot's state.
func (d *drifter) next(rng *rand.Rand) slotState {
	s := slotState{scale: 1 + d.halfWidth*(2*rng.Float64()-1)}
	if d.owdMax > 0 {
		s.owd = time.Duration(rng.Int64N(int64(d.owdMax) + 1))
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
