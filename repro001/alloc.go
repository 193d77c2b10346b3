package repro001

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/profile"
)

// Allocation procedures (seed 001 §Bandwidth Allocation, findings 4–7).
// The per-slot drift (finding 15) scales a slot's base and maximum by up
// to ±35 % on the downlink; these procedures compare absolute rates with
// the profile's nominal ones, so they run with it off (the slot-rate
// procedure measures it).
var noDrift = map[string]any{"downlink.drift.median_rate_change": "0bps", "uplink.drift.median_rate_change": "0bps"}

// rampOffered is the ramp probe's rate: above any allocation the paper
// reports (340 Mbit/s DL, 60 UL) so that the queue stays under pressure.
var rampOffered = map[string]float64{"downlink": 800e6, "uplink": 200e6}

// rampDuration is the ramp probe's length: the 400 ms ramp (finding 5)
// with room to show the plateau.
const rampDuration = 1500 * time.Millisecond

// rampHead is probe's initial-rate window (the first 20 ms of deliveries).
const rampHead = 20 * time.Millisecond

// Ramp is one direction's ramp probe.
type Ramp struct {
	Direction string
	Ramp      probe.Ramp
	Rate      []probe.RatePoint // the delivered rate (figure)
}

func runRamp(l lab, v Variant, dir string, anchor time.Time, seed int) (*Ramp, error) {
	_, r, err := run{name: "ramp-" + dir, path: starlink(dir, v, noDrift), dur: (rampDuration + 500*time.Millisecond).String(), seed: seed,
		epoch: anchor, flows: []flowSpec{cbr(rampOffered[dir], 1500, 0, rampDuration)}}.inferred(l, probe.Options{})
	if err != nil {
		return nil, err
	}
	if r.Ramp == nil {
		return nil, fmt.Errorf("ramp %s: the prober found no ramp", dir)
	}
	return &Ramp{Direction: dir, Ramp: *r.Ramp, Rate: r.Rate}, nil
}

func (r *Ramp) quantities(p *profile.StarlinkProfile) []Quantity {
	a := access(p, r.Direction).Alloc
	m := a.Multiplier
	// The first 20 ms already climb: their mean is base·(1 + (m−1)·10 ms/ramp).
	initial := a.Base * (1 + (m-1)*float64(rampHead/2)/float64(a.Ramp))
	// A linear ramp from base to m·base over ramp reaches 90 % of the peak
	// at ramp·(0.9m − 1)/(m − 1).
	t90 := time.Duration(float64(a.Ramp) * (0.9*m - 1) / (m - 1))
	paperBase := map[string]string{"downlink": "~100", "uplink": "~30"}[r.Direction]
	paperM := map[string]string{"downlink": "up to 3.4×", "uplink": "up to 2×"}[r.Direction]
	return []Quantity{
		{Finding: "4", Direction: r.Direction, Name: "base allocation (first 20 ms)", Unit: "Mbit/s", Paper: paperBase,
			Profile: initial / 1e6, Inferred: r.Ramp.Initial, Rel: within10, Why: "frames quantise 20 ms to 15 grants"},
		{Finding: "5", Direction: r.Direction, Name: "ramped allocation (peak)", Unit: "Mbit/s", Paper: paperM + " base",
			Profile: a.Base * m / 1e6, Inferred: r.Ramp.Peak, Rel: within10, Why: "90th percentile of 20 ms averages"},
		{Finding: "5", Direction: r.Direction, Name: "time to 90 % of the peak", Unit: "ms", Paper: "ramp over ~400 ms",
			Profile: ms(t90), Inferred: ms(r.Ramp.Time), Rel: within10, Abs: 20, Why: "5 ms bins, 20 ms averages"},
	}
}

// Decay probe parameters (finding 6): an elephant above the allocation
// ramps it up, stops, and a burst Gap later reads what is left of it from
// its drain rate (probe.DrainRate). One run per gap: a burst inside the
// hold would end it (the allocation sees demand again).
const (
	decayElephant    = 1.2 // × the ramp's peak: the queue stays under pressure with few AQM drops
	decayStop        = time.Second
	decayStep        = 25 * time.Millisecond
	decayMaxGap      = 800 * time.Millisecond // the perturbed uplink: 300 ms hold + 200 ms decay, with margin
	decayBurstFrames = 12                     // the burst lasts 12 frames at the peak: probe.DrainRate uses up to 10
)

// Decay is one direction's decay curve.
type Decay struct {
	Direction string
	Points    []probe.DecayPoint
	Fit       probe.Decay
}

func runDecay(l lab, v Variant, dir string, anchor time.Time, seed int, peakMbps float64, frame time.Duration) (*Decay, error) {
	const size = 1500
	n := int(math.Ceil(decayBurstFrames * peakMbps * 1e6 * frame.Seconds() / (size * 8)))
	d := &Decay{Direction: dir}
	for gap := time.Duration(0); gap <= decayMaxGap; gap += decayStep {
		start := decayStop + gap
		stop := start + time.Duration(float64(n*size*8)/burstLine*float64(time.Second))
		res, err := run{name: fmt.Sprintf("decay-%s-%v", dir, gap), path: starlink(dir, v, noDrift), dur: (start + 500*time.Millisecond).String(),
			seed: seed, epoch: anchor, flows: []flowSpec{cbr(decayElephant*peakMbps*1e6, size, 0, decayStop), cbr(burstLine, size, start, stop)}}.exec(l)
		if err != nil {
			return nil, err
		}
		elephant, burst, err := pair(res.Scenario, res)
		if err != nil {
			return nil, err
		}
		rate, ok := probe.DrainRate(burst, elephant)
		if !ok {
			return nil, fmt.Errorf("decay %s: gap %v: the burst drained in under three frames", dir, gap)
		}
		d.Points = append(d.Points, probe.DecayPoint{Gap: servedGap(elephant, burst), Mbps: rate})
	}
	fit, err := probe.InferDecay(d.Points, peakMbps)
	if err != nil {
		return nil, fmt.Errorf("decay %s: %w", dir, err)
	}
	d.Fit = fit
	return d, nil
}

// servedGap is from the elephant's last send to the burst's first
// service (its first arrival less the path's delay floor): when the link
// read the allocation. Without flow isolation the burst waits behind the
// elephant's backlog, so the send gap would date the reading too early.
func servedGap(elephant, burst *probe.Trace) time.Duration {
	floor := time.Duration(1 << 62)
	var last time.Duration
	for _, s := range elephant.Samples {
		last = max(last, s.Sent)
		if !s.Lost {
			floor = min(floor, s.OWD)
		}
	}
	first := time.Duration(1 << 62)
	for _, s := range burst.Samples {
		if !s.Lost {
			first = min(first, s.Recv())
		}
	}
	return first - floor - last
}

func (d *Decay) quantities(p *profile.StarlinkProfile) []Quantity {
	a := access(p, d.Direction).Alloc
	paperHold := map[string]string{"downlink": "none (decays at once)", "uplink": "~175, longer with queue occupancy"}[d.Direction]
	return []Quantity{
		{Finding: "6", Direction: d.Direction, Name: "hold after demand stops", Unit: "ms", Paper: paperHold,
			Profile: ms(a.Hold), Inferred: ms(d.Fit.Hold), Rel: within10, Abs: 20,
			Why: "the allocation sees the stop through a 10 ms arrival average (demand_window): about two windows late"},
		{Finding: "6", Direction: d.Direction, Name: "linear decay to base", Unit: "ms", Paper: "~200",
			Profile: ms(a.Decay), Inferred: ms(d.Fit.Time), Rel: within10, Why: "25 ms grid of gaps, 10-frame drain rates"},
		{Finding: "6", Direction: d.Direction, Name: "allocation after the decay", Unit: "Mbit/s", Paper: "back to base",
			Profile: a.Base / 1e6, Inferred: d.Fit.Base, Rel: within10, Why: "10-frame drain rates"},
	}
}
