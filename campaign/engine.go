package campaign

import (
	"context"
	"fmt"

	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

// Engine executes one run. The simulator is the only one today; the emulator
// (real packets through TUN devices, wall-clock time) will implement the same
// interface.
type Engine interface {
	Name() string
	Run(ctx context.Context, r Run) (*result.Result, error)
}

// EngineFor returns the engine a run names.
func EngineFor(name string) (Engine, error) {
	if name == DefaultEngine {
		return Sim{}, nil
	}
	return nil, fmt.Errorf("campaign: engine %q is not supported (allowed: %s)", name, DefaultEngine)
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
	sc, err := scenario.Parse(r.Name(), []byte(r.Scenario))
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", r.ID, err)
	}
	spec, err := sc.Spec()
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", r.ID, err)
	}
	res, err := netsim.Run(spec)
	if err != nil {
		return nil, fmt.Errorf("run %s (%s): %w", r.ID, r.Name(), err)
	}
	return res, nil
}
