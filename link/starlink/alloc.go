package starlink

import (
	"time"

	"github.com/leolab/leolab/profile"
)

// allocator is the per-terminal demand-driven allocation (seed 001 findings
// 4-7, 13). Per frame it sees the bytes that arrived and the backlog left
// after the frame's grant:
//   - pressure (backlog > pressure_packets and arrivals >= demand_high x
//     allocation) grows the allocation linearly from base to base x
//     multiplier over ramp (regrow after a reconfiguration reset);
//   - demand has stopped when arrivals < demand_low x allocation; after hold
//     (and, with hold_until_empty, once the backlog is below
//     pressure_packets) the allocation decays linearly to base over decay;
//   - in between it holds.
//
// It is one per link, so every flow of the terminal shares (and a new flow
// inherits) the current allocation.
type allocator struct {
	cfg       profile.Alloc
	base, max float64 // bits/s, this slot's (drift-scaled) values
	rate      float64 // current allocation, bits/s
	arrival   float64 // EWMA of the arrival rate, bits/s
	regrowing bool    // since the last reset, until the maximum is reached or demand stops
	stopped   bool
	stoppedAt time.Duration
}

func newAllocator(cfg profile.Alloc) allocator {
	a := allocator{cfg: cfg}
	a.setScale(1)
	a.rate = a.base
	return a
}

// setScale applies a slot's drift factor to base and maximum.
func (a *allocator) setScale(s float64) {
	a.base = a.cfg.Base * s
	a.max = a.cfg.Base * a.cfg.Multiplier * s
	a.rate = min(max(a.rate, a.base), a.max)
}

// reset returns the allocation to base (reconfiguration, finding 13).
func (a *allocator) reset() {
	a.rate = a.base
	a.regrowing = true
}

// frame updates the allocation at the end of a frame of length dt that
// started at now. During an outage (down) only the demand estimate moves:
// no grants are given, so none grow or decay.
func (a *allocator) frame(now, dt time.Duration, arrivedBytes, backlog int, down bool) {
	sec := dt.Seconds()
	gain := min(1, sec/a.cfg.DemandWindow.Seconds())
	a.arrival += gain * (float64(arrivedBytes)*8/sec - a.arrival)
	if down {
		return
	}

	span := a.max - a.base
	switch {
	case backlog > a.cfg.PressurePackets && a.arrival >= a.cfg.DemandHigh*a.rate:
		a.stopped = false
		ramp := a.cfg.Ramp
		if a.regrowing {
			ramp = a.cfg.Regrow
		}
		a.rate = min(a.max, a.rate+span*sec/ramp.Seconds())
		if a.rate >= a.max {
			a.regrowing = false
		}
	case a.arrival < a.cfg.DemandLow*a.rate:
		if !a.stopped {
			a.stopped, a.stoppedAt = true, now
		}
		if now-a.stoppedAt < a.cfg.Hold || (a.cfg.HoldUntilEmpty && backlog > a.cfg.PressurePackets) {
			return
		}
		a.regrowing = false
		a.rate = max(a.base, a.rate-span*sec/a.cfg.Decay.Seconds())
	default:
		a.stopped = false
	}
}
