package repro001

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/profile"
)

// PoP sweep (seed 001 §Queue Management, finding 12: above ~500 Mbit/s
// offered to the downlink, a PoP rate limiter adds its own buffer before
// the satellite): probes at rising rates; an upstream queue shows as
// delay beyond what the satellite's buffer (from the burst) can hold at
// the delivered rate. The step sets the threshold's resolution (half of
// it).
const (
	popFrom, popTo, popStep = 300e6, 800e6, 50e6
	popDuration             = 1500 * time.Millisecond
	popTail                 = 500 * time.Millisecond // the window read: the end of the run, queues built
)

// PoP is the sweep's outcome.
type PoP struct {
	Runs []probe.PoPRun
	Fit  probe.PoP
}

func runPoP(l lab, v Variant, anchor time.Time, seed, limit int) (*PoP, error) {
	const size = 1500
	p := &PoP{}
	for r := popFrom; r <= popTo; r += popStep {
		res, err := run{name: fmt.Sprintf("pop-%.0f", r/1e6), path: starlink("downlink", v, noDrift), dur: popDuration.String(), seed: seed,
			epoch: anchor, flows: []flowSpec{cbr(r, size, 0, 0)}}.exec(l)
		if err != nil {
			return nil, err
		}
		tr, err := probe.FromResult(res, 0)
		if err != nil {
			return nil, err
		}
		p.Runs = append(p.Runs, tailLoad(tr, r/1e6, popDuration-popTail, popDuration))
	}
	fit, err := probe.InferPoP(p.Runs, limit, size)
	if err != nil {
		return nil, err
	}
	p.Fit = fit
	return p, nil
}

// tailLoad reads one sweep run over the packets sent in [from, to): their
// median delay above the trace's least and their delivered rate.
func tailLoad(tr *probe.Trace, offered float64, from, to time.Duration) probe.PoPRun {
	floor := time.Duration(1 << 62)
	for _, s := range tr.Samples {
		if !s.Lost {
			floor = min(floor, s.OWD)
		}
	}
	var q []time.Duration
	var first, last time.Duration = 1 << 62, 0
	for _, s := range tr.Samples {
		if s.Lost || s.Sent < from || s.Sent >= to {
			continue
		}
		q = append(q, s.OWD-floor)
		first, last = min(first, s.Recv()), max(last, s.Recv())
	}
	run := probe.PoPRun{OfferedMbps: offered}
	if len(q) > 1 && last > first {
		run.QueueDelay = medianDur(q)
		run.DeliveredMbps = float64((len(q)-1)*tr.Size*8) / (last - first).Seconds() / 1e6
	}
	return run
}

func (p *PoP) quantities(prof *profile.StarlinkProfile) []Quantity {
	want := 0.0
	if prof.PoP.Enabled {
		want = prof.PoP.Rate / 1e6
	}
	return []Quantity{{Finding: "12", Direction: "downlink", Name: "PoP limiter threshold (offered)", Unit: "Mbit/s", Paper: "~500",
		Profile: want, Inferred: p.Fit.Threshold, Rel: within10, Abs: popStep / 2 / 1e6,
		Why: "the sweep's half step"}}
}
