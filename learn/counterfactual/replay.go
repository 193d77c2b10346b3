package counterfactual

import (
	"fmt"
	"slices"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/bbr"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
)

// DefaultHorizon bounds a replay past its decision: a ProbeBW cycle lasts
// 2–3 s of wall-clock time from DOWN to REFILL (tcp_bbr.c
// bbr_bw_probe_base_us = 2 s, bbr_bw_probe_rand_us = 1 s), plus the UP
// and REFILL rounds and perhaps a 200 ms PROBE_RTT (bbr_probe_rtt_mode_ms);
// 6 s holds a whole cycle on every path we model (RTTs < 1 s). A window
// that does not end within it is marked truncated.
const DefaultHorizon = 6 * time.Second

// SpecFunc builds the scenario's simulator spec afresh (a replay must not
// share link stages with another run). Flow 0 is the probed BBR flow.
type SpecFunc func() (netsim.Spec, error)

// run simulates one spec with flow 0 under a probe with ov, until end
// (0: the spec's duration).
func run(build SpecFunc, ov Override, end time.Duration) (*result.Result, *probe, error) {
	spec, err := build()
	if err != nil {
		return nil, nil, err
	}
	if len(spec.Flows) == 0 || spec.Flows[0].Kind != netsim.TCP {
		return nil, nil, fmt.Errorf("counterfactual: scenario %s: flow 0 must be a TCP flow (the probed BBR flow)", spec.Name)
	}
	if end > 0 && end < spec.Duration {
		spec.Duration = end
	}
	var p *probe
	spec.Flows = slices.Clone(spec.Flows)
	spec.Flows[0].Controller = func(cfg cc.Config) (cc.Controller, error) {
		var err error
		p, err = newProbe(cfg, ov)
		return p, err
	}
	res, err := netsim.Run(spec)
	if err != nil {
		return nil, nil, err
	}
	p.interval = spec.Interval
	return res, p, nil
}

// BaseRun is a run with stock BBRv3 gains on flow 0.
type BaseRun struct {
	Result *result.Result
	// Entries are every UP and DOWN entry of flow 0, in time order.
	Entries []Entry
	// Last is flow 0's counters at its last ACK.
	Last Counters
	// Interval is the result's sampling interval (the pool's rows').
	Interval time.Duration
}

// Base runs the scenario with stock BBRv3 gains on flow 0.
func Base(build SpecFunc) (*BaseRun, error) {
	res, p, err := run(build, Override{}, 0)
	if err != nil {
		return nil, err
	}
	return &BaseRun{Result: res, Entries: p.entries, Last: p.c, Interval: p.interval}, nil
}

// Replay runs the scenario again to entry e, holds gain for that phase
// visit, and returns the window from e to the next UP entry (at most
// horizon after e).
func Replay(build SpecFunc, e Entry, gain float64, horizon time.Duration) (Window, error) {
	if horizon <= 0 {
		horizon = DefaultHorizon
	}
	_, p, err := run(build, Override{Phase: e.Phase, Visit: e.Visit, Gain: gain}, e.At.T+horizon)
	if err != nil {
		return Window{}, err
	}
	w, ok := p.window()
	if !ok {
		return Window{}, fmt.Errorf("counterfactual: the replay never reached %v visit %d at %v", e.Phase, e.Visit, e.At.T)
	}
	if w.Start != e.At {
		return Window{}, fmt.Errorf("counterfactual: replay diverged before %v visit %d at %v (the simulator is not deterministic)", e.Phase, e.Visit, e.At.T)
	}
	return w, nil
}

// Window is the base run's own window for entry k: from it to the next
// UP entry within horizon, as a replay of entry k with the stock gain
// measures it. Without such an entry it is marked truncated and ends at
// the run's last ACK (a replay would end at its horizon instead: the
// labelling leaves those decisions out).
func (b *BaseRun) Window(k int, horizon time.Duration) Window {
	if horizon <= 0 {
		horizon = DefaultHorizon
	}
	start := b.Entries[k].At
	for _, e := range b.Entries[k+1:] {
		if e.At.T > start.T+horizon {
			break
		}
		if e.Phase == bbr.GainUp {
			return Window{Start: start, End: e.At}
		}
	}
	return Window{Start: start, End: b.Last, Truncated: true}
}
