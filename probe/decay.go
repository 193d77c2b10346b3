package probe

import (
	"fmt"
	"sort"
	"time"
)

// DecayPoint is the allocation a drain-rate burst (DrainRate) found Gap
// after an overloading sender stopped.
type DecayPoint struct {
	Gap  time.Duration
	Mbps float64
}

// Decay is how the allocation fell once demand stopped (seed 001 §Bandwidth
// Allocation, finding 6: the downlink falls linearly to its base in ~200
// ms; the uplink holds ~175 ms, longer with queue occupancy, then falls
// over ~200 ms).
type Decay struct {
	// High and Base are the allocation before the fall (given, e.g. a
	// ramp's peak, or the median of the earliest points) and after it
	// (the latest points).
	High, Base float64 // Mbit/s
	// Hold is from the sender's stop to the start of the linear fall,
	// Time the fall's length: a least-squares line through the points
	// strictly inside 5–95 % of the span High−Base gives the slope (Time
	// = span/slope) and where it leaves High (Hold).
	Hold, Time time.Duration
}

// decayEnds is how many points at each end give High and Base.
const decayEnds = 2

// InferDecay fits the fall of the allocation to points over gaps that
// start before it and end after it (at least 2·decayEnds+1 points). high
// is the allocation before the fall when known (the ramp's peak): without
// flow isolation a burst waits behind the stopped sender's backlog, so
// the earliest points may already be falling; 0 takes the earliest
// points' median.
func InferDecay(points []DecayPoint, high float64) (Decay, error) {
	var d Decay
	if len(points) < 2*decayEnds+1 {
		return d, fmt.Errorf("decay: %d points, want at least %d", len(points), 2*decayEnds+1)
	}
	p := append([]DecayPoint(nil), points...)
	sort.Slice(p, func(i, j int) bool { return p[i].Gap < p[j].Gap })
	d.High = high
	if high <= 0 {
		d.High = medianF(p[:decayEnds])
	}
	d.Base = medianF(p[len(p)-decayEnds:])
	span := d.High - d.Base
	if span <= 0.1*d.High {
		return d, fmt.Errorf("decay: the allocation did not fall (%.1f → %.1f Mbit/s)", d.High, d.Base)
	}
	var n, sx, sy, sxx, sxy float64
	for _, x := range p {
		if f := (x.Mbps - d.Base) / span; f > decayEdge && f < 1-decayEdge {
			t := x.Gap.Seconds()
			n, sx, sy, sxx, sxy = n+1, sx+t, sy+x.Mbps, sxx+t*t, sxy+t*x.Mbps
		}
	}
	if n < 2 || n*sxx-sx*sx <= 0 {
		return d, fmt.Errorf("decay: %v points inside the fall, want 2 or more (a finer grid of gaps)", n)
	}
	slope := (n*sxy - sx*sy) / (n*sxx - sx*sx) // Mbit/s per second
	if slope >= 0 {
		return d, fmt.Errorf("decay: the points inside the fall rise (%.1f Mbit/s per s)", slope)
	}
	icept := (sy - slope*sx) / n
	d.Time = time.Duration(span / -slope * float64(time.Second))
	d.Hold = max(0, time.Duration((d.High-icept)/slope*float64(time.Second)))
	return d, nil
}

// decayEdge keeps the points near High and Base out of the line fit: a
// point there may straddle the knee.
const decayEdge = 0.05

func medianF(p []DecayPoint) float64 {
	v := make([]float64, len(p))
	for i, x := range p {
		v[i] = x.Mbps
	}
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}
