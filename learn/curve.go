package learn

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// Reward-curve regression (`leolab learn train --target curve`): instead
// of classifying a counterfactual row's argmax, regress every feasible
// gain's measured reward (Row.GainRewards) on the standardised state and
// answer the argmax of the predicted curve. A row whose best gain wins by
// 10⁻⁴ counts as much as one where it wins by 0.1 for a classifier; for
// the regression the rows where the gain matters weigh by how much.

// Targets of `learn train --target`.
const (
	TargetGain  = "gain"  // classify the argmax (Train, TrainState)
	TargetCurve = "curve" // regress the reward curve (TrainCurve)
)

// ParseTarget checks a --target value.
func ParseTarget(name string) (string, error) {
	return parseChoice("target", name, TargetGain, TargetCurve)
}

// CurveExample is a counterfactual row's state (the columns of the
// feature set) and its measured reward curve over Feasible(Phase).
type CurveExample struct {
	Example
	S       []float64
	Rewards []float64
}

// curveColumns are the StateExample columns of each feature set: the
// lmbbr set is its three online features (rate over max bw, RTT over min
// RTT − 1, loss; its bias is the regression's own), all is every column.
var curveColumns = map[string][]int{FeaturesLMBBR: {7, 8, 9}, FeaturesAll: {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}

// CurveFeatureNames are the input names of a feature set.
func CurveFeatureNames(features string) []string {
	var out []string
	for _, j := range curveColumns[features] {
		out = append(out, StateFeatureNames[j])
	}
	return out
}

// CurveExamples returns the counterfactual rows of rows (those
// CounterfactualExamples returns, in its order) with their states over
// the feature set (FeaturesLMBBR or FeaturesAll) and reward curves.
func CurveExamples(rows []Row, features string) ([]CurveExample, error) {
	cols, ok := curveColumns[features]
	if !ok {
		return nil, fmt.Errorf("learn: feature set %q (allowed: %s, %s)", features, FeaturesLMBBR, FeaturesAll)
	}
	at := rowIndex(rows)
	st := StateExamples(rows, CounterfactualExamples(rows))
	out := make([]CurveExample, len(st))
	for n, e := range st {
		r := rows[at[rowKey{e.Source, e.Index}]]
		if len(r.GainRewards) != len(Feasible(r.Phase)) {
			return nil, fmt.Errorf("learn: %s row %d: %d gain_rewards, want one per %v gain %v", r.Source.Flow, r.Index, len(r.GainRewards), r.Phase, Feasible(r.Phase))
		}
		s := make([]float64, len(cols))
		for k, j := range cols {
			s[k] = e.S[j]
		}
		out[n] = CurveExample{Example: e.Example, S: s, Rewards: slices.Clone(r.GainRewards)}
	}
	return out, nil
}

// CurveModel is the reward-curve policy: per phase, predicted centred
// rewards ŷ = B + W·z, z = (s − Mean)/Std standardised on that phase's
// training rows; the answer is argmax ŷ (the lower gain on a tie), the
// probabilities softmax(ŷ/Temperature). Not an lmbbr format.
type CurveModel struct {
	Format   string                     `json:"format"`
	Features []string                   `json:"features"`
	Phases   map[string]CurvePhaseModel `json:"phases"`
	Training json.RawMessage            `json:"training,omitempty"`
}

// CurvePhaseModel is one phase's regression: Bias[k] and Weights[k] give
// gain k's reward minus the curve's mean over the phase's gains.
type CurvePhaseModel struct {
	Gains       []float64   `json:"gains"`
	Mean        []float64   `json:"mean"`
	Std         []float64   `json:"std"`
	Bias        []float64   `json:"bias"`
	Weights     [][]float64 `json:"weights"`
	L2          float64     `json:"l2"`
	Temperature float64     `json:"temperature"`
}

// CurveFormat names the CurveModel JSON.
const CurveFormat = "leolab-learn-reward-curve-ridge"

// CurveL2Grid are the ridge penalties TrainCurve chooses from, by leaving
// one training city out: on standardised inputs the Gram matrix's
// diagonal is 1, so 10⁻³ is almost least squares and 10³ almost the
// constant curve (the best constant gain).
var CurveL2Grid = []float64{1e-3, 1e-2, 1e-1, 1, 10, 100, 1000}

// CurveTemperatureGrid are the softmax temperatures, in reward units:
// from well below the median margin of the labels (0.003–0.008, README)
// to above the mean worst-to-best spread (0.04–0.15), where the softmax is
// almost uniform.
var CurveTemperatureGrid = []float64{1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5, 1}

// CurveConfig: L2 > 0 fixes the ridge penalty; 0 chooses it from
// CurveL2Grid by the least mean regret over leave-one-training-city-out
// folds. The temperature is always chosen on those folds, by the least
// cross-entropy of the labels.
type CurveConfig struct {
	L2 float64
}

// TrainCurve fits the reward-curve model per phase (UP, DOWN). Choosing
// the penalty or the temperature needs examples of at least two
// locations in each phase.
func TrainCurve(ex []CurveExample, features []string, cfg CurveConfig) (*CurveModel, error) {
	if !(cfg.L2 >= 0) || cfg.L2 > maxL2 || math.IsInf(cfg.L2, 0) {
		return nil, fmt.Errorf("learn: train: --l2 %g is out of range (allowed: 0 to choose by leaving a city out, or up to %g)", cfg.L2, float64(maxL2))
	}
	m := &CurveModel{Format: CurveFormat, Features: slices.Clone(features), Phases: map[string]CurvePhaseModel{}}
	for _, ph := range []Phase{Up, Down} {
		var xs []CurveExample
		for _, e := range ex {
			if e.Phase == ph {
				xs = append(xs, e)
			}
		}
		if len(xs) == 0 {
			return nil, fmt.Errorf("learn: train: no %v examples", ph)
		}
		folds := locations(xs)
		if len(folds) < 2 {
			return nil, fmt.Errorf("learn: train: --target curve: %v examples from %d location(s) %v; choosing the penalty and temperature leaves one out, so it needs 2 or more", ph, len(folds), folds)
		}
		grid := CurveL2Grid
		if cfg.L2 > 0 {
			grid = []float64{cfg.L2}
		}
		bestL2, bestRegret := 0.0, math.Inf(1)
		var bestPred [][]float64
		// ties go to the larger penalty (the simpler model): the grid
		// ascends, so a later penalty wins on ≤
		for _, l2 := range grid {
			pred := crossPredict(xs, folds, l2)
			var reg float64
			for i, e := range xs {
				reg += regret(e.Rewards, argmax(pred[i])) / float64(len(xs))
			}
			if reg <= bestRegret+1e-12 {
				bestL2, bestRegret, bestPred = l2, reg, pred
			}
		}
		bestT, bestCE := 0.0, math.Inf(1)
		for _, t := range CurveTemperatureGrid {
			var ce float64
			for i, e := range xs {
				ce -= math.Log(softmaxT(bestPred[i], t)[slices.Index(Feasible(ph), e.Label)]) / float64(len(xs))
			}
			if ce < bestCE {
				bestT, bestCE = t, ce
			}
		}
		pm := fitCurve(xs, bestL2)
		pm.Temperature = bestT
		m.Phases[phaseKeys[ph]] = pm
	}
	return m, nil
}

// locations lists the examples' locations in first-seen order.
func locations(xs []CurveExample) []string {
	var out []string
	for _, e := range xs {
		if !slices.Contains(out, e.Source.Location) {
			out = append(out, e.Source.Location)
		}
	}
	return out
}

// crossPredict predicts each example's centred curve with a model fitted
// on the other locations.
func crossPredict(xs []CurveExample, folds []string, l2 float64) [][]float64 {
	pred := make([][]float64, len(xs))
	for _, loc := range folds {
		rest, _ := Split(xs, func(e CurveExample) bool { return e.Source.Location == loc })
		pm := fitCurve(rest, l2)
		for i, e := range xs {
			if e.Source.Location == loc {
				pred[i] = pm.predict(e.S)
			}
		}
	}
	return pred
}

// fitCurve is the ridge regression of one phase: standardise on xs,
// centre each curve on its mean over the gains, then per gain minimise
// (1/n)·Σ(y − b − w·z)² + l2·|w|² (bias unpenalised; z has zero mean over
// xs, so b is the mean target and w solves (ZᵀZ/n + l2·I)·w = Zᵀ(y − b)/n).
func fitCurve(xs []CurveExample, l2 float64) CurvePhaseModel {
	ph := xs[0].Phase
	k, d := len(Feasible(ph)), len(xs[0].S)
	n := float64(len(xs))
	pm := CurvePhaseModel{Gains: Feasible(ph), Mean: make([]float64, d), Std: make([]float64, d), Bias: make([]float64, k), Weights: make([][]float64, k), L2: l2}
	for _, e := range xs {
		for j, v := range e.S {
			pm.Mean[j] += v / n
		}
	}
	for _, e := range xs {
		for j, v := range e.S {
			pm.Std[j] += (v - pm.Mean[j]) * (v - pm.Mean[j]) / n
		}
	}
	for j, v := range pm.Std {
		pm.Std[j] = math.Sqrt(v)
		// as TrainState: below 1e-9 of the mean's scale the spread is rounding
		if !(pm.Std[j] > 1e-9*max(1, math.Abs(pm.Mean[j]))) {
			pm.Std[j] = 1
		}
	}
	zs := make([][]float64, len(xs))
	ys := make([][]float64, len(xs))
	for i, e := range xs {
		zs[i] = pm.z(e.S)
		ys[i] = centred(e.Rewards)
		for c := range k {
			pm.Bias[c] += ys[i][c] / n
		}
	}
	a := make([][]float64, d)
	for p := range a {
		a[p] = make([]float64, d)
		for q := range a[p] {
			for _, z := range zs {
				a[p][q] += z[p] * z[q] / n
			}
		}
		a[p][p] += l2
	}
	for c := range k {
		rhs := make([]float64, d)
		for i, z := range zs {
			for p := range rhs {
				rhs[p] += z[p] * (ys[i][c] - pm.Bias[c]) / n
			}
		}
		pm.Weights[c] = solveSPD(a, rhs)
	}
	return pm
}

// centred is r minus its mean.
func centred(r []float64) []float64 {
	var m float64
	for _, v := range r {
		m += v / float64(len(r))
	}
	out := make([]float64, len(r))
	for i, v := range r {
		out[i] = v - m
	}
	return out
}

// solveSPD solves a·x = b for a symmetric positive definite a (Cholesky;
// a is not modified). A constant input column makes a's diagonal l2 only,
// still positive for l2 > 0.
func solveSPD(a [][]float64, b []float64) []float64 {
	d := len(b)
	l := make([][]float64, d)
	for i := range l {
		l[i] = make([]float64, d)
		for j := 0; j <= i; j++ {
			s := a[i][j]
			for k := range j {
				s -= l[i][k] * l[j][k]
			}
			if i == j {
				l[i][i] = math.Sqrt(max(s, 1e-300))
			} else {
				l[i][j] = s / l[j][j]
			}
		}
	}
	y := make([]float64, d)
	for i := range d {
		s := b[i]
		for k := range i {
			s -= l[i][k] * y[k]
		}
		y[i] = s / l[i][i]
	}
	x := make([]float64, d)
	for i := d - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < d; k++ {
			s -= l[k][i] * x[k]
		}
		x[i] = s / l[i][i]
	}
	return x
}

func (pm *CurvePhaseModel) z(s []float64) []float64 {
	z := make([]float64, len(s))
	for j, v := range s {
		z[j] = (v - pm.Mean[j]) / pm.Std[j]
	}
	return z
}

// predict is the predicted centred curve for state s.
func (pm *CurvePhaseModel) predict(s []float64) []float64 {
	z := pm.z(s)
	out := make([]float64, len(pm.Bias))
	for c := range out {
		out[c] = pm.Bias[c]
		for j, v := range z {
			out[c] += pm.Weights[c][j] * v
		}
	}
	return out
}

// Curve is phase ph's predicted curve (rewards minus their mean over the
// gains) for state s.
func (m *CurveModel) Curve(ph Phase, s []float64) []float64 {
	pm := m.Phases[phaseKeys[ph]]
	return pm.predict(s)
}

// Predict is the gain of the predicted curve's maximum (the lower on a
// tie).
func (m *CurveModel) Predict(ph Phase, s []float64) float64 {
	return m.Phases[phaseKeys[ph]].Gains[argmax(m.Curve(ph, s))]
}

// Probs is softmax(curve/Temperature).
func (m *CurveModel) Probs(ph Phase, s []float64) []float64 {
	return softmaxT(m.Curve(ph, s), m.Phases[phaseKeys[ph]].Temperature)
}

func argmax(v []float64) int {
	b := 0
	for i, x := range v {
		if x > v[b] {
			b = i
		}
	}
	return b
}

// regret is the best reward of the curve minus gain k's.
func regret(r []float64, k int) float64 { return slices.Max(r) - r[k] }

func softmaxT(v []float64, t float64) []float64 {
	mx := slices.Max(v)
	out := make([]float64, len(v))
	var s float64
	for i, x := range v {
		out[i] = math.Exp((x - mx) / t)
		s += out[i]
	}
	for i := range out {
		out[i] /= s
	}
	return out
}

// CurveEval adds to a phase's PhaseEval what its answers cost in reward:
// the mean regret (best reward of the row's curve minus the answered
// gain's) of the model and of always answering the training majority
// label, and the oracle's mean reward (the best gain every time).
type CurveEval struct {
	PhaseEval
	Regret, MajorityRegret, Oracle float64
	MajorityGain                   float64
}

// EvaluateCurve scores m on ex per phase (UP, DOWN), with the training
// examples' majority label (ties to the lower gain) as the baseline, and
// the cross-entropy prior of SetPrior.
func EvaluateCurve(m *CurveModel, train, ex []CurveExample) []CurveEval {
	answers := make([]answer, 0, len(ex))
	for _, e := range ex {
		answers = append(answers, answer{Phase: e.Phase, Label: e.Label, Gain: m.Predict(e.Phase, e.S), Probs: m.Probs(e.Phase, e.S)})
	}
	evs := evaluate(answers)
	SetPrior(evs, plainExamples(train), plainExamples(ex))
	out := make([]CurveEval, len(evs))
	for i, ev := range evs {
		gains := Feasible(ev.Phase)
		count := make([]int, len(gains))
		for _, e := range train {
			if e.Phase == ev.Phase {
				count[slices.Index(gains, e.Label)]++
			}
		}
		maj := slices.Index(count, slices.Max(count))
		ce := CurveEval{PhaseEval: ev, MajorityGain: gains[maj]}
		for _, e := range ex {
			if e.Phase != ev.Phase {
				continue
			}
			ce.Regret += regret(e.Rewards, slices.Index(gains, m.Predict(e.Phase, e.S)))
			ce.MajorityRegret += regret(e.Rewards, maj)
			ce.Oracle += slices.Max(e.Rewards)
		}
		if ev.N > 0 {
			ce.Regret /= float64(ev.N)
			ce.MajorityRegret /= float64(ev.N)
			ce.Oracle /= float64(ev.N)
		}
		out[i] = ce
	}
	return out
}

// CurvePhaseEvals are the evaluations' PhaseEvals (for EvalJSON).
func CurvePhaseEvals(evs []CurveEval) []PhaseEval {
	out := make([]PhaseEval, len(evs))
	for i, e := range evs {
		out[i] = e.PhaseEval
	}
	return out
}

// MarshalCurveModel writes m as indented JSON with info as its training
// record.
func MarshalCurveModel(m *CurveModel, info TrainingInfo) ([]byte, error) {
	return marshalTrained(m, &m.Training, info)
}
