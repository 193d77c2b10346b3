package rlenv

import (
	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/orca"
)

// OrcaTask is Orca (cc/orca) as the environment trains it.
func OrcaTask() Task {
	return Task{Name: "orca", StateDim: orca.StateDim,
		New: func(cfg cc.Config, d Decider) (cc.Controller, error) { return orca.New(cfg, d) }}
}
