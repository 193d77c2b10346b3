package learn

import (
	"fmt"

	"github.com/leolab/leolab/result"
)

// Row is one experience: a state, its detected phase and the expert action
// with its reward (paper 003 eq. 18), plus the eq. 2–3 gain.
type Row struct {
	Source Source
	Index  int // interval index within the trace
	Sample
	Phase Phase
	Refs  Refs
	// Action is the expert label a* (eq. 17), Reward is R(s, a*) (eq. 16).
	Action float64
	Reward float64
	// Mapped is the continuous gain of eq. 2 snapped to the phase's set
	// (eq. 3), the label the repository trains on; MappedReward its R.
	Mapped       float64
	MappedReward float64
	// LabelSource says where Action and Reward come from; with
	// LabelCounterfactual, GainRewards are the measured rewards of the
	// phase's feasible gains, ascending (Feasible(Phase)).
	LabelSource LabelSource
	GainRewards []float64
}

// Pool is an experience pool D_BBR = {(s_i, a*_i, R(s_i, a*_i))}.
type Pool struct {
	Params Params
	Rows   []Row
}

// NewPool returns an empty pool with paper 003's parameters.
func NewPool() *Pool { return &Pool{Params: DefaultParams()} }

// minSamples: phase detection needs an interval on each side of an
// extremum.
const minSamples = 3

// Add labels one trace and appends one row per interval.
func (p *Pool) Add(tr Trace) error {
	if len(tr.Samples) < minSamples {
		return fmt.Errorf("learn: %s: %d intervals, need at least %d", tr.Source.Flow, len(tr.Samples), minSamples)
	}
	b := make([]float64, len(tr.Samples))
	for i, s := range tr.Samples {
		b[i] = s.Throughput
	}
	phases := DetectPhases(b, p.Params)
	refs := ComputeRefs(tr.Samples, p.Params)
	for i, s := range tr.Samples {
		r := refs[i]
		row := Row{Source: tr.Source, Index: i, Sample: s, Phase: phases[i], Refs: r}
		row.Action, row.Reward = r.Expert(row.Phase, p.Params)
		row.Mapped = Nearest(row.Phase, ContinuousGain(row.Phase, r.BNorm))
		row.MappedReward = r.Reward(row.Mapped, p.Params)
		p.Rows = append(p.Rows, row)
	}
	return nil
}

// AddFlow builds a trace from a flow (FromFlow) and adds it.
func (p *Pool) AddFlow(src Source, f result.Flow) error {
	tr, err := FromFlow(src, f)
	if err != nil {
		return err
	}
	return p.Add(tr)
}
