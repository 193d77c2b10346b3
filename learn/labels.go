package learn

import (
	"fmt"

	"github.com/leolab/leolab/cc/lmbbr"
)

// LabelSource says where a row's expert label (Action, Reward) comes from.
type LabelSource uint8

const (
	// LabelSurrogate is eq. 17's argmax of the trace-driven surrogate
	// reward (the zero value: every pool built from traces).
	LabelSurrogate LabelSource = iota
	// LabelCounterfactual is the argmax of eq. 16 scored on replays of the
	// simulator, one per feasible gain (package learn/counterfactual);
	// Row.GainRewards holds every gain's measured reward.
	LabelCounterfactual
)

// labelNames are the pool's label_source values; "" reads as surrogate
// (pools written before the field existed).
var labelNames = map[string]LabelSource{"": LabelSurrogate, "surrogate": LabelSurrogate, "counterfactual": LabelCounterfactual}

func (s LabelSource) String() string {
	if s == LabelCounterfactual {
		return "counterfactual"
	}
	return "surrogate"
}

// ParseLabelSource reads a label source by name (surrogate,
// counterfactual).
func ParseLabelSource(name string) (LabelSource, error) {
	if s, ok := labelNames[name]; ok && name != "" {
		return s, nil
	}
	return 0, fmt.Errorf("label source %q (allowed: surrogate, counterfactual)", name)
}

// CounterfactualExamples returns the rows labelled by replay as examples
// whose label is the measured argmax (Row.Action), with features computed
// over all rows as Examples does: the other rows are the traces' history.
func CounterfactualExamples(rows []Row) []Example {
	ins := RowInputs(rows)
	var out []Example
	for i, r := range rows {
		if r.LabelSource != LabelCounterfactual || r.Phase == Cruise {
			continue
		}
		out = append(out, Example{Source: r.Source, Index: r.Index, Phase: r.Phase, X: lmbbr.Features(ins[i]), Label: r.Action})
	}
	return out
}
