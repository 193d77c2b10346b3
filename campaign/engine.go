package campaign

import (
	"context"
	"fmt"

	"github.com/leolab/leolab/emu"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

// Engine executes one run: the simulator (Sim) or the live emulator (Emu).
type Engine interface {
	Name() string
	Run(ctx context.Context, r Run) (*result.Result, error)
}

// EngineFor returns the engine a run names.
func EngineFor(name string) (Engine, error) {
	switch name {
	case DefaultEngine:
		return Sim{}, nil
	case EngineEmu:
		return Emu{}, nil
	}
	return nil, fmt.Errorf("campaign: engine %q is not supported (allowed: %s, %s)", name, DefaultEngine, EngineEmu)
}

// Sim runs scenarios on the deterministic packet-level simulator (netsim):
// the same run gives the same numbers on every machine.
type Sim struct{}

// Name is "sim".
func (Sim) Name() string { return DefaultEngine }

// Run parses the run's scenario and simulates it. The simulation itself is
// not interruptible; ctx is checked before it starts.
func (Sim) Run(ctx context.Context, r Run) (*result.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	_, spec, err := r.spec()
	if err != nil {
		return nil, err
	}
	res, err := netsim.Run(spec)
	if err != nil {
		return nil, fmt.Errorf("run %s (%s): %w", r.ID, r.Name(), err)
	}
	return res, nil
}

// spec parses the run's scenario and translates it for the engines.
func (r Run) spec() (*scenario.Scenario, netsim.Spec, error) {
	sc, spec, err := scenario.ParseSpec(r.Name(), []byte(r.Scenario))
	if err != nil {
		return nil, netsim.Spec{}, fmt.Errorf("run %s: %w", r.ID, err)
	}
	return sc, spec, nil
}

// Emu runs scenarios live through the emulator: kernel TCP for the
// algorithms the kernel has, leolab's transport over UDP for the others,
// through the same link model in real time (needs root). Results vary from
// run to run like any measurement.
type Emu struct{}

// Name is "emu".
func (Emu) Name() string { return EngineEmu }

// Run emulates the run's scenario for its duration of wall-clock time.
func (Emu) Run(ctx context.Context, r Run) (*result.Result, error) {
	sc, spec, err := r.spec()
	if err != nil {
		return nil, err
	}
	rc, err := emu.FromSpec(spec, emu.SpecOptions{Starlink: sc.Starlink()})
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", r.ID, err)
	}
	res, err := emu.Run(ctx, rc)
	if err != nil {
		return nil, fmt.Errorf("run %s (%s): %w", r.ID, r.Name(), err)
	}
	return res, nil
}
