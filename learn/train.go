package learn

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/leolab/leolab/cc/lmbbr"
	"github.com/leolab/leolab/internal/quantity"
)

// TrainConfig are the hyperparameters of the policy's training.
type TrainConfig struct {
	// Iterations of full-batch gradient descent per phase.
	Iterations int
	// Rate is the gradient step.
	Rate float64
	// L2 is the ridge penalty on the non-bias weights, added to the mean
	// cross-entropy as (L2/2)·Σw².
	L2 float64
}

// DefaultTrainConfig: enough steps for the 4-feature problem to converge
// (the loss changes by < 1e-6 per step at the end), a mild penalty so
// separable phases keep finite weights.
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{Iterations: 4000, Rate: 0.5, L2: 1e-3}
}

// Bounds of the hyperparameters: beyond them training does not converge
// to anything lmbbr can use, or runs for hours (every iteration passes
// over every example).
const (
	maxIterations = 10_000_000
	maxRate       = 100
	maxL2         = 1e6
)

// Validate checks the hyperparameters, naming each as its flag of `leolab
// learn train`: iterations in [1, 10⁷], rate in (0, 100], l2 in [0, 10⁶],
// rate·l2 below 2, all finite (NaN passed the old check cfg.L2 < 0 and trained a model of
// NaN weights).
func (cfg TrainConfig) Validate() error {
	if cfg.Iterations < 1 || cfg.Iterations > maxIterations {
		return fmt.Errorf("--iterations %d is out of range (allowed: 1..%d)", cfg.Iterations, maxIterations)
	}
	if err := quantity.Float(cfg.Rate, math.SmallestNonzeroFloat64, maxRate); err != nil {
		return fmt.Errorf("--rate: %v", err)
	}
	if err := quantity.Float(cfg.L2, 0, maxL2); err != nil {
		return fmt.Errorf("--l2: %v", err)
	}
	// Each step multiplies a weight's ridge part by 1 − rate·l2, so the
	// descent diverges (to NaN weights) once the product reaches 2, before
	// the cross-entropy's own curvature is counted.
	if p := cfg.Rate * cfg.L2; p >= 2 {
		return fmt.Errorf("--rate %g × --l2 %g = %g: gradient descent diverges when the product reaches 2 (allowed: rate·l2 < 2; lower --rate)", cfg.Rate, cfg.L2, p)
	}
	return nil
}

// phaseKeys maps learn's phases to the model's.
var phaseKeys = map[Phase]string{Up: lmbbr.PhaseUp, Down: lmbbr.PhaseDown}

// Train fits one multinomial logistic regression per phase (UP, DOWN)
// over that phase's feasible gains (eq. 15) to the examples' eq. 3 labels:
// deterministic, from zero weights, by full-batch gradient descent on the
// mean cross-entropy plus the L2 penalty. A phase without examples is an
// error.
func Train(ex []Example, cfg TrainConfig) (*lmbbr.Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("learn: train: %w", err)
	}
	m := &lmbbr.Model{Format: lmbbr.LinearFormat, Version: lmbbr.LinearVersion, Features: lmbbr.FeatureNames[:], Phases: map[string]lmbbr.PhaseModel{}}
	for _, ph := range []Phase{Up, Down} {
		gains := Feasible(ph)
		xs, ys, err := phaseData(ex, ph, func(e Example) lmbbr.Vector { return e.X })
		if err != nil {
			return nil, err
		}
		m.Phases[phaseKeys[ph]] = lmbbr.PhaseModel{Gains: gains, Weights: fit(xs, ys, len(gains), cfg)}
	}
	return m, nil
}

// phaseData returns the inputs (x of each example) and label indices into
// Feasible(ph) of ex's examples of phase ph; a label outside the phase's
// gains or a phase without examples is an error.
func phaseData[E withExample, X any](ex []E, ph Phase, x func(E) X) ([]X, []int, error) {
	gains := Feasible(ph)
	var xs []X
	var ys []int
	for _, e := range ex {
		b := e.plain()
		if b.Phase != ph {
			continue
		}
		k := slices.Index(gains, b.Label)
		if k < 0 {
			return nil, nil, fmt.Errorf("learn: train: %v label %g not in %v", ph, b.Label, gains)
		}
		xs, ys = append(xs, x(e)), append(ys, k)
	}
	if len(xs) == 0 {
		return nil, nil, fmt.Errorf("learn: train: no %v examples", ph)
	}
	return xs, ys, nil
}

// fit runs the gradient descent of Train for one phase.
func fit(xs []lmbbr.Vector, ys []int, k int, cfg TrainConfig) [][]float64 {
	zs := make([][]float64, len(xs))
	for i := range xs {
		zs[i] = xs[i][:]
	}
	return fitDense(zs, ys, k, cfg)
}

// PhaseEval is a model's accuracy on one phase's examples.
type PhaseEval struct {
	Phase   Phase
	N       int
	Correct int
	// MAE is the mean absolute gain error; Confusion[i][j] counts label
	// gain i predicted as gain j (indices into Feasible(Phase)).
	MAE       float64
	Confusion [][]int
	// Majority is the accuracy of always predicting the most frequent
	// label of these examples (the baseline a model must beat).
	Majority float64
	// CE is the mean cross-entropy −ln p(label) of the model's softmax,
	// nats; PriorCE the same for the best constant predictor, the label
	// frequencies of a training set (NaN until SetPrior).
	CE, PriorCE float64
}

// SetPrior scores, on each evaluation's examples ex, the constant
// predictor of train's label frequencies per phase, smoothed by adding ½
// to every gain's count (the Krichevsky–Trofimov estimator: a gain never
// seen in training gets a finite cross-entropy).
func SetPrior(evs []PhaseEval, train, ex []Example) {
	for i := range evs {
		ph := evs[i].Phase
		gains := Feasible(ph)
		c := make([]float64, len(gains))
		n := 0.0
		for k := range c {
			c[k] = 0.5
			n += 0.5
		}
		for _, e := range train {
			if k := slices.Index(gains, e.Label); e.Phase == ph && k >= 0 {
				c[k]++
				n++
			}
		}
		var ce float64
		m := 0
		for _, e := range ex {
			if k := slices.Index(gains, e.Label); e.Phase == ph && k >= 0 {
				ce -= math.Log(c[k] / n)
				m++
			}
		}
		evs[i].PriorCE = ce / float64(m)
	}
}

// Accuracy is Correct/N (NaN without examples).
func (e PhaseEval) Accuracy() float64 { return float64(e.Correct) / float64(e.N) }

// Evaluate scores m on the examples, per phase (UP, DOWN).
func Evaluate(m *lmbbr.Model, ex []Example) []PhaseEval {
	answers := make([]answer, 0, len(ex))
	for _, e := range ex {
		if k, ok := phaseKeys[e.Phase]; ok {
			answers = append(answers, answer{Phase: e.Phase, Label: e.Label, Gain: m.Predict(k, e.X), Probs: m.Phases[k].Probs(e.X)})
		}
	}
	return evaluate(answers)
}

// answer is a model's answer to one example: its predicted gain and its
// probabilities over the phase's feasible gains.
type answer struct {
	Phase       Phase
	Label, Gain float64
	Probs       []float64
}

// evaluate scores the answers per phase (UP, DOWN): accuracy, mean
// absolute gain error, confusion over Feasible(phase), the majority
// label's share and the mean cross-entropy of the labels.
func evaluate(answers []answer) []PhaseEval {
	var out []PhaseEval
	for _, ph := range []Phase{Up, Down} {
		gains := Feasible(ph)
		ev := PhaseEval{Phase: ph, Confusion: make([][]int, len(gains)), PriorCE: math.NaN()}
		for i := range ev.Confusion {
			ev.Confusion[i] = make([]int, len(gains))
		}
		count := make([]int, len(gains))
		for _, a := range answers {
			if a.Phase != ph {
				continue
			}
			ev.N++
			if a.Gain == a.Label {
				ev.Correct++
			}
			ev.MAE += math.Abs(a.Gain - a.Label)
			li, pi := slices.Index(gains, a.Label), slices.Index(gains, a.Gain)
			if li >= 0 && pi >= 0 {
				ev.Confusion[li][pi]++
				count[li]++
			}
			if li >= 0 {
				ev.CE -= math.Log(a.Probs[li])
			}
		}
		if ev.N > 0 {
			ev.MAE /= float64(ev.N)
			ev.CE /= float64(ev.N)
			ev.Majority = float64(slices.Max(count)) / float64(ev.N)
		}
		out = append(out, ev)
	}
	return out
}

// SplitLocation separates examples measured at location loc (the
// held-out city) from the rest.
func SplitLocation(ex []Example, loc string) (rest, held []Example) {
	return Split(ex, func(e Example) bool { return e.Source.Location == loc })
}

// Split separates the items for which isHeld is true from the rest, each
// in its order (learn/seq splits its sequences with it too).
func Split[T any](xs []T, isHeld func(T) bool) (rest, held []T) {
	for _, x := range xs {
		if isHeld(x) {
			held = append(held, x)
		} else {
			rest = append(rest, x)
		}
	}
	return rest, held
}

// TrainingInfo is the model's "training" record: where its weights came
// from and how well it did.
type TrainingInfo struct {
	Label     string         `json:"label"`
	Config    TrainConfig    `json:"config"`
	Train     map[string]int `json:"train_examples"`
	Locations []string       `json:"train_locations"`
	Holdout   string         `json:"holdout,omitempty"`
	TrainAcc  map[string]any `json:"train_accuracy"`
	HeldAcc   map[string]any `json:"holdout_accuracy,omitempty"`
	Regen     string         `json:"regenerate"`
}

// EvalJSON summarises evaluations for TrainingInfo.
func EvalJSON(evs []PhaseEval) map[string]any {
	out := map[string]any{}
	for _, e := range evs {
		out[e.Phase.String()] = map[string]any{"n": e.N, "accuracy": round4(e.Accuracy()),
			"majority": round4(e.Majority), "mae": round4(e.MAE)}
	}
	return out
}

func round4(x float64) float64 {
	if math.IsNaN(x) {
		return -1
	}
	return math.Round(x*1e4) / 1e4
}

// MarshalModel writes m as indented JSON with info as its training record.
func MarshalModel(m *lmbbr.Model, info TrainingInfo) ([]byte, error) {
	return marshalTrained(m, &m.Training, info)
}

// marshalTrained sets *training (m's training record) to info and writes
// m as indented JSON with a final newline.
func marshalTrained(m any, training *json.RawMessage, info TrainingInfo) ([]byte, error) {
	raw, err := json.Marshal(info)
	if err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	*training = raw
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	return append(b, '\n'), nil
}
