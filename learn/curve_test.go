package learn

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

// curveSet builds counterfactual examples at each location whose reward
// curve is linear in one state feature x: r_k = 0.01·(k − 2)·(x − ½) + 0.7
// for gain k of the phase, so the best gain is the highest for x > ½ and
// the lowest below, and the constant curve (x's mean is 0) always answers
// the lowest gain. x takes ten values in [−1, 1], none within 0.05 of ½.
func curveSet(locs ...string) []CurveExample {
	var out []CurveExample
	for _, loc := range locs {
		for i := range 20 {
			ph := Up
			if i%2 == 1 {
				ph = Down
			}
			x := -1 + 2*float64(i/2)/9
			g := Feasible(ph)
			r := make([]float64, len(g))
			for k := range r {
				r[k] = 0.01*float64(k-2)*(x-0.5) + 0.7
			}
			label := g[0]
			if x > 0.5 {
				label = g[len(g)-1]
			}
			// a second input that carries nothing
			out = append(out, CurveExample{Example: Example{Source: Source{Location: loc}, Index: i, Phase: ph, Label: label},
				S: []float64{x, float64(i % 3)}, Rewards: r})
		}
	}
	return out
}

// The regression recovers a linear curve on a city it never saw: every
// argmax right, zero regret, where always answering the training majority
// (the lowest gain) loses the worst-to-best spread on the rows above ½.
func TestTrainCurveHeldOut(t *testing.T) {
	train, held := Split(curveSet("a", "b", "c", "tokyo"), func(e CurveExample) bool { return e.Source.Location == "tokyo" })
	m, err := TrainCurve(train, []string{"x", "junk"}, CurveConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range EvaluateCurve(m, train, held) {
		if ev.N != 10 || ev.Correct != 10 {
			t.Errorf("%v: %d of %d right, want 10 of 10", ev.Phase, ev.Correct, ev.N)
		}
		if ev.Regret > 1e-12 {
			t.Errorf("%v: regret %g, want 0", ev.Phase, ev.Regret)
		}
		// majority = lowest gain; its regret on x > ½ (x = 5/9, 7/9, 1)
		// is r_top − r_bottom = 0.04·(x − ½), averaged over 10 rows
		want := 0.0
		for _, x := range []float64{5.0 / 9, 7.0 / 9, 1} {
			want += 0.04 * (x - 0.5) / 10
		}
		if ev.MajorityGain != Feasible(ev.Phase)[0] || math.Abs(ev.MajorityRegret-want) > 1e-12 {
			t.Errorf("%v: always %g regret %g, want always %g at %g", ev.Phase, ev.MajorityGain, ev.MajorityRegret, Feasible(ev.Phase)[0], want)
		}
		if !(ev.CE < ev.PriorCE) {
			t.Errorf("%v: cross-entropy %g not below the prior's %g", ev.Phase, ev.CE, ev.PriorCE)
		}
		pm := m.Phases[phaseKeys[ev.Phase]]
		if pm.L2 >= 1000 || !slices.Contains(CurveTemperatureGrid, pm.Temperature) {
			t.Errorf("%v: chose l2 %g, temperature %g: the constant curve answers wrong, so the penalty must be below 1000", ev.Phase, pm.L2, pm.Temperature)
		}
	}
	// Same examples, same model, byte for byte.
	m2, err := TrainCurve(train, []string{"x", "junk"}, CurveConfig{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := MarshalCurveModel(m, TrainingInfo{})
	b, _ := MarshalCurveModel(m2, TrainingInfo{})
	if !bytes.Equal(a, b) {
		t.Error("two trainings on the same examples differ")
	}
}

// With one standardised input the ridge weight is the covariance of z
// and the centred target over 1 + l2 (z has unit variance).
func TestFitCurveRidgeWeight(t *testing.T) {
	ex := curveSet("a", "b")
	var up []CurveExample
	for _, e := range ex {
		if e.Phase == Up {
			e.S = e.S[:1]
			up = append(up, e)
		}
	}
	const l2 = 1.0
	pm := fitCurve(up, l2)
	n := float64(len(up))
	var mean, v float64
	for _, e := range up {
		mean += e.S[0] / n
	}
	for _, e := range up {
		v += (e.S[0] - mean) * (e.S[0] - mean) / n
	}
	sd := math.Sqrt(v)
	for k := range pm.Weights {
		var cov, ybar float64
		for _, e := range up {
			ybar += centred(e.Rewards)[k] / n
		}
		for _, e := range up {
			cov += (e.S[0] - mean) / sd * (centred(e.Rewards)[k] - ybar) / n
		}
		if want := cov / (1 + l2); math.Abs(pm.Weights[k][0]-want) > 1e-12 || math.Abs(pm.Bias[k]-ybar) > 1e-15 {
			t.Errorf("gain %d: weight %g bias %g, want %g, %g", k, pm.Weights[k][0], pm.Bias[k], want, ybar)
		}
	}
}

func TestTrainCurveBad(t *testing.T) {
	if _, err := TrainCurve(curveSet("a"), nil, CurveConfig{}); err == nil || !strings.Contains(err.Error(), "needs 2 or more") {
		t.Errorf("one location: %v, want a 2-or-more error", err)
	}
	if _, err := TrainCurve(curveSet("a", "b"), nil, CurveConfig{L2: math.NaN()}); err == nil || !strings.Contains(err.Error(), "--l2") {
		t.Errorf("NaN l2: %v, want an --l2 error", err)
	}
	if _, err := ParseTarget("argmax"); err == nil || !strings.Contains(err.Error(), "allowed: gain, curve") {
		t.Errorf("ParseTarget(argmax): %v", err)
	}
}
