package learn

import (
	"math"
	"testing"

	"github.com/leolab/leolab/cc/lmbbr"
)

// A model of zero weights is uniform over a phase's five gains: its
// cross-entropy is ln 5 on any label. The prior of 4 training labels
// 1.05 (add-½ smoothing over 5 gains) gives 1.05 the probability
// 4.5/6.5 and 1.10 0.5/6.5.
func TestCrossEntropy(t *testing.T) {
	zero := func(k int) [][]float64 {
		w := make([][]float64, k)
		for i := range w {
			w[i] = make([]float64, lmbbr.NumFeatures)
		}
		return w
	}
	m := &lmbbr.Model{Phases: map[string]lmbbr.PhaseModel{
		lmbbr.PhaseUp:   {Gains: Feasible(Up), Weights: zero(5)},
		lmbbr.PhaseDown: {Gains: Feasible(Down), Weights: zero(5)},
	}}
	var x lmbbr.Vector
	x[0] = 1
	train := []Example{{Phase: Up, X: x, Label: 1.05}, {Phase: Up, X: x, Label: 1.05}, {Phase: Up, X: x, Label: 1.05}, {Phase: Up, X: x, Label: 1.05}}
	held := []Example{{Phase: Up, X: x, Label: 1.05}, {Phase: Up, X: x, Label: 1.10}}
	evs := Evaluate(m, held)
	if math.Abs(evs[0].CE-math.Log(5)) > 1e-12 {
		t.Errorf("uniform model CE %g, want ln 5 = %g", evs[0].CE, math.Log(5))
	}
	SetPrior(evs, train, held)
	want := -(math.Log(4.5/6.5) + math.Log(0.5/6.5)) / 2
	if math.Abs(evs[0].PriorCE-want) > 1e-12 {
		t.Errorf("prior CE %g, want %g", evs[0].PriorCE, want)
	}
	if !math.IsNaN(evs[1].PriorCE) {
		t.Errorf("DOWN without examples: prior CE %g, want NaN", evs[1].PriorCE)
	}
}
