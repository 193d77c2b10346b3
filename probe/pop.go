package probe

import (
	"fmt"
	"sort"
	"time"
)

// PoPRun is one overloading probe of a PoP sweep: offered at OfferedMbps,
// its queueing delay over the end of the run (QueueDelay: median one-way
// delay above the idle floor) and its delivered rate there.
type PoPRun struct {
	OfferedMbps   float64
	QueueDelay    time.Duration
	DeliveredMbps float64
}

// PoP is where a sweep of offered rates met an upstream limiter (seed 001
// §Queue Management, finding 12: above ~500 Mbit/s offered to the
// downlink a PoP rate limiter adds its own buffer before the satellite).
type PoP struct {
	// Excess is each run's queueing delay beyond what the satellite's
	// buffer can hold at the rate it delivered (LimitPackets packets of
	// the probe's size): an access queue alone never exceeds it.
	Excess []time.Duration
	// Threshold is the midpoint between the fastest run without excess
	// and the slowest with it (the sweep's resolution: half its step).
	Threshold float64 // Mbit/s; 0 when no run showed excess
	// Buffer is the upstream buffer in packets: the median excess of the
	// runs above the threshold, at the threshold's rate. A lower bound:
	// the access queue is rarely quite full, and what it lacks is taken
	// off the excess.
	Buffer int
}

// popExcessMin is the excess delay that marks an upstream queue: well
// above the access queue's frame-scale jitter, well below a PoP buffer of
// a few hundred packets at 500 Mbit/s (seed 001 gives no size).
const popExcessMin = 10 * time.Millisecond

// InferPoP finds the limiter's threshold in a sweep; limitPackets is the
// access queue's limit (from a burst, Burst.Kept) and size the probes'
// packet size in bytes.
func InferPoP(runs []PoPRun, limitPackets, size int) (PoP, error) {
	var p PoP
	if len(runs) < 2 || limitPackets <= 0 || size <= 0 {
		return p, fmt.Errorf("pop: %d runs, limit %d, size %d: want 2 or more runs and a known limit and size", len(runs), limitPackets, size)
	}
	r := append([]PoPRun(nil), runs...)
	sort.Slice(r, func(i, j int) bool { return r[i].OfferedMbps < r[j].OfferedMbps })
	below, above := -1, -1
	var over []time.Duration
	for i, x := range r {
		if x.DeliveredMbps <= 0 {
			return p, fmt.Errorf("pop: run at %.0f Mbit/s delivered nothing", x.OfferedMbps)
		}
		held := time.Duration(float64(limitPackets*size*8) / (x.DeliveredMbps * 1e6) * float64(time.Second))
		e := x.QueueDelay - held
		p.Excess = append(p.Excess, e)
		if e > popExcessMin {
			if above < 0 {
				above = i
			}
			over = append(over, e)
		} else if above < 0 {
			below = i
		}
	}
	if above < 0 {
		return p, nil
	}
	lo := 0.0
	if below >= 0 {
		lo = r[below].OfferedMbps
	}
	p.Threshold = (lo + r[above].OfferedMbps) / 2
	p.Buffer = int(quantile(over, 0.5).Seconds() * p.Threshold * 1e6 / float64(size*8))
	return p, nil
}
