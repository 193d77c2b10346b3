package repro001

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/profile"
)

// Flow-isolation procedure (seed 001 §Flow Queuing, findings 17–19): a
// mouse well within its fair share (2 Mbit/s) runs alone first (its delay
// floor), then beside an elephant that overloads the link; the window
// read starts once the elephant's queue has built.
const (
	mouseRate      = 2e6
	mouseSize      = 1000
	elephantStart  = 500 * time.Millisecond
	isoFrom, isoTo = 1500 * time.Millisecond, 4 * time.Second
	// elephantOver is the elephant's rate over the ramp's peak; on the
	// downlink it stays below the PoP threshold (its FIFO would queue the
	// mouse too, before the satellite's flow queues).
	elephantOver = 1.3
	popMargin    = 0.9
)

// Isolation is one direction's mouse-and-elephant run.
type Isolation struct {
	Direction    string
	ElephantMbps float64
	Iso          probe.Isolation
	// Queueing delay over time of both flows (figure), one point per 10 ms.
	T, MouseMs, ElephantMs []float64
}

func runIsolation(l lab, v Variant, dir string, anchor time.Time, seed int, peakMbps, popMbps float64) (*Isolation, error) {
	el := elephantOver * peakMbps
	if dir == "downlink" && popMbps > 0 {
		el = min(el, popMargin*popMbps)
	}
	res, err := run{name: "isolation-" + dir, path: starlink(dir, v, noDrift), dur: isoTo.String(), seed: seed, epoch: anchor,
		flows: []flowSpec{cbr(mouseRate, mouseSize, 0, 0), cbr(el*1e6, 1500, elephantStart, 0)}}.exec(l)
	if err != nil {
		return nil, err
	}
	mouse, elephant, err := pair(res.Scenario, res)
	if err != nil {
		return nil, err
	}
	floor := time.Duration(1 << 62)
	for _, s := range mouse.Samples {
		if !s.Lost && s.Sent < elephantStart {
			floor = min(floor, s.OWD)
		}
	}
	if floor == 1<<62 {
		return nil, fmt.Errorf("isolation %s: the mouse delivered nothing alone", dir)
	}
	is := &Isolation{Direction: dir, ElephantMbps: el, Iso: probe.InferIsolation(mouse, elephant, floor, isoFrom, isoTo)}
	is.T, is.MouseMs = binnedDelay(mouse, floor, 10*time.Millisecond, 0)
	_, is.ElephantMs = binnedDelay(elephant, floor, 10*time.Millisecond, len(is.T))
	return is, nil
}

// binnedDelay is the median queueing delay (ms) of the packets sent in
// each bin; NaN where none arrived. n > 0 fixes the number of bins.
func binnedDelay(tr *probe.Trace, floor, bin time.Duration, n int) (t, v []float64) {
	var end time.Duration
	for _, s := range tr.Samples {
		end = max(end, s.Sent)
	}
	if n <= 0 {
		n = int(end/bin) + 1
	}
	groups := make([][]time.Duration, n)
	for _, s := range tr.Samples {
		if k := int(s.Sent / bin); !s.Lost && k < n {
			groups[k] = append(groups[k], max(0, s.OWD-floor))
		}
	}
	for k, g := range groups {
		t = append(t, (time.Duration(k+1) * bin).Seconds())
		if len(g) == 0 {
			v = append(v, nan)
			continue
		}
		v = append(v, ms(medianDur(g)))
	}
	return t, v
}

func (is *Isolation) quantities(p *profile.StarlinkProfile) []Quantity {
	a := access(p, is.Direction)
	coupled := !(a.AQM.PerFlow && a.Queue.Isolation)
	paperLoss := map[string]string{"downlink": "coupled (shared head-drop buffer)", "uplink": "isolated (per-flow AQM)"}[is.Direction]
	qs := []Quantity{
		{Finding: "17", Direction: is.Direction, Name: "mouse delay isolated", Unit: "", Paper: "yes",
			Profile: verdict(a.Queue.Isolation), Inferred: verdict(is.Iso.DelayIsolated),
			Why: "mouse queueing delay under a quarter of the elephant's"},
		{Finding: "18–19", Direction: is.Direction, Name: "mouse loss coupled to the elephant's", Unit: "", Paper: paperLoss,
			Profile: verdict(coupled), Inferred: verdict(is.Iso.LossCoupled),
			Why: "mouse loss above 10× the idle random loss; the model couples loss unless the AQM is per flow and the queues are separate"},
	}
	if a.Queue.Isolation {
		frame := p.TDMA.Frame
		qs = append(qs, Quantity{Finding: "17", Direction: is.Direction, Name: "mouse queueing delay", Unit: "ms", Paper: "stays low",
			Profile: 0, Inferred: ms(is.Iso.Mouse.QueueDelay), Abs: ms(2 * frame), Why: "DRR serves the mouse within a frame or two"})
	} else {
		qs = append(qs, Quantity{Finding: "17", Direction: is.Direction, Name: "mouse / elephant queueing delay", Unit: "", Paper: "(isolation off)",
			Profile: 1, Inferred: is.Iso.DelayRatio, Rel: within10, Why: "one FIFO: both wait behind the same packets"})
	}
	return qs
}
