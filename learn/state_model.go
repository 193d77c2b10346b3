package learn

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/leolab/leolab/cc/lmbbr"
)

// StateFeatureNames are the inputs of the full-state linear model
// (`leolab learn train --features all`), after its bias: every numeric
// field of a pool row's state (paper 003 Algorithm 1 line 1's
// {t, b, τ, cwnd, rwnd, RTT, RTTvar}), the three online features of
// cc/lmbbr.Features (delivery rate over max bw, RTT over min RTT − 1, loss
// rate) and the stream flag S_k (1 for a downlink stream). The phase is
// not an input: each phase has its own weights. The location flag L_j is
// left out: a held-out city would only show a flag no weight was trained
// on.
var StateFeatureNames = []string{"t", "throughput", "retransmits", "cwnd", "rwnd", "rtt", "rttvar",
	"b_norm", "rtt_excess", "loss", "downlink"}

// Feature sets of `learn train --features`.
const (
	FeaturesLMBBR = "lmbbr" // cc/lmbbr.Features' 4, the embeddable model
	FeaturesAll   = "all"   // StateFeatureNames, standardised
)

// ParseFeatureSet checks a --features value.
func ParseFeatureSet(name string) (string, error) {
	return parseChoice("feature set", name, FeaturesLMBBR, FeaturesAll)
}

// parseChoice returns name if it is one of allowed, else an error naming
// what and the allowed values.
func parseChoice(what, name string, allowed ...string) (string, error) {
	if slices.Contains(allowed, name) {
		return name, nil
	}
	return "", fmt.Errorf("%s %q (allowed: %s)", what, name, strings.Join(allowed, ", "))
}

// StateExample is an Example with its full state (StateFeatureNames'
// order, raw units: s, bit/s, segments, bytes, bytes, ms, ms, then the
// lmbbr features and the flag).
type StateExample struct {
	Example
	S []float64
}

// StateExamples pairs each example of ex (made from rows by Examples or
// CounterfactualExamples) with its row's full state. Rows are matched by
// Source and Index.
func StateExamples(rows []Row, ex []Example) []StateExample {
	at := rowIndex(rows)
	out := make([]StateExample, len(ex))
	for n, e := range ex {
		r := rows[at[rowKey{e.Source, e.Index}]]
		down := 0.0
		if strings.HasPrefix(r.Source.Stream, "downlink") {
			down = 1
		}
		out[n] = StateExample{Example: e, S: []float64{r.T.Seconds(), r.Throughput, float64(r.Retransmits),
			float64(r.CWnd), float64(r.RWnd), float64(r.RTT.Microseconds()) / 1e3, float64(r.RTTVar.Microseconds()) / 1e3,
			e.X[1], e.X[2], e.X[3], down}}
	}
	return out
}

// StateModel is the full-state linear policy: per phase, a softmax over
// the phase's feasible gains of W·z, z = (1, (s − Mean)/Std). It cannot be
// embedded in cc/lmbbr (whose controller computes only the 4 lmbbr
// features online); it exists to measure what more of the state buys.
type StateModel struct {
	Format   string                     `json:"format"`
	Features []string                   `json:"features"`
	Mean     []float64                  `json:"mean"`
	Std      []float64                  `json:"std"`
	Phases   map[string]StatePhaseModel `json:"phases"`
	Training json.RawMessage            `json:"training,omitempty"`
}

// StatePhaseModel is one phase's gains (ascending) and weights, one row of
// 1+len(Features) per gain.
type StatePhaseModel struct {
	Gains   []float64   `json:"gains"`
	Weights [][]float64 `json:"weights"`
}

// StateFormat names the StateModel JSON (not an lmbbr format).
const StateFormat = "leolab-learn-state-linear"

// z standardises s into a bias-first vector.
func (m *StateModel) z(s []float64) []float64 {
	z := make([]float64, 1+len(s))
	z[0] = 1
	for j, v := range s {
		z[1+j] = (v - m.Mean[j]) / m.Std[j]
	}
	return z
}

// Probs is phase ph's softmax for state s.
func (m *StateModel) Probs(ph Phase, s []float64) []float64 {
	return lmbbr.Softmax(m.Phases[phaseKeys[ph]].Weights, m.z(s))
}

// Predict is phase ph's most probable gain (the lower on a tie).
func (m *StateModel) Predict(ph Phase, s []float64) float64 {
	p := m.Probs(ph, s)
	best := 0
	for k, v := range p {
		if v > p[best] {
			best = k
		}
	}
	return m.Phases[phaseKeys[ph]].Gains[best]
}

// TrainState fits the full-state model as Train fits the lmbbr one (per
// phase, from zero weights, full-batch gradient descent on the mean
// cross-entropy plus (L2/2)·Σw² over the non-bias weights), after
// standardising every feature by the training examples' mean and standard
// deviation (a constant feature gets Std 1, so it stays 0).
func TrainState(ex []StateExample, cfg TrainConfig) (*StateModel, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("learn: train: %w", err)
	}
	if len(ex) == 0 {
		return nil, fmt.Errorf("learn: train: no examples")
	}
	nf := len(StateFeatureNames)
	m := &StateModel{Format: StateFormat, Features: slices.Clone(StateFeatureNames), Mean: make([]float64, nf),
		Std: make([]float64, nf), Phases: map[string]StatePhaseModel{}}
	for _, e := range ex {
		for j, v := range e.S {
			m.Mean[j] += v / float64(len(ex))
		}
	}
	for _, e := range ex {
		for j, v := range e.S {
			m.Std[j] += (v - m.Mean[j]) * (v - m.Mean[j]) / float64(len(ex))
		}
	}
	for j, v := range m.Std {
		m.Std[j] = math.Sqrt(v)
		// Below 1e-9 of the mean's scale the spread is rounding, not signal.
		if !(m.Std[j] > 1e-9*max(1, math.Abs(m.Mean[j]))) {
			m.Std[j] = 1
		}
	}
	for _, ph := range []Phase{Up, Down} {
		gains := Feasible(ph)
		zs, ys, err := phaseData(ex, ph, func(e StateExample) []float64 { return m.z(e.S) })
		if err != nil {
			return nil, err
		}
		m.Phases[phaseKeys[ph]] = StatePhaseModel{Gains: gains, Weights: fitDense(zs, ys, len(gains), cfg)}
	}
	return m, nil
}

// fitDense is the gradient descent of Train and TrainState for one phase:
// full batch from zero weights over vectors of any length (bias first,
// unpenalised), on lmbbr's own softmax.
func fitDense(zs [][]float64, ys []int, k int, cfg TrainConfig) [][]float64 {
	d := len(zs[0])
	w, grad := make([][]float64, k), make([][]float64, k)
	for c := range w {
		w[c], grad[c] = make([]float64, d), make([]float64, d)
	}
	n := float64(len(zs))
	for range cfg.Iterations {
		for c := range grad {
			clear(grad[c])
		}
		for i, z := range zs {
			p := lmbbr.Softmax(w, z)
			for c := range p {
				g := p[c]
				if c == ys[i] {
					g--
				}
				for j, v := range z {
					grad[c][j] += g * v / n
				}
			}
		}
		for c := range w {
			for j := range w[c] {
				g := grad[c][j]
				if j > 0 {
					g += cfg.L2 * w[c][j]
				}
				w[c][j] -= cfg.Rate * g
			}
		}
	}
	return w
}

// EvaluateState scores m on the examples per phase (UP, DOWN), as
// Evaluate does the lmbbr model.
func EvaluateState(m *StateModel, ex []StateExample) []PhaseEval {
	answers := make([]answer, 0, len(ex))
	for _, e := range ex {
		if _, ok := phaseKeys[e.Phase]; ok {
			answers = append(answers, answer{Phase: e.Phase, Label: e.Label, Gain: m.Predict(e.Phase, e.S), Probs: m.Probs(e.Phase, e.S)})
		}
	}
	return evaluate(answers)
}

// rowKey names a row of a pool: its source and index.
type rowKey struct {
	src Source
	i   int
}

// rowIndex maps each row's key to its position in rows.
func rowIndex(rows []Row) map[rowKey]int {
	at := make(map[rowKey]int, len(rows))
	for i, r := range rows {
		at[rowKey{r.Source, r.Index}] = i
	}
	return at
}

// withExample is an example carrying more than its Example (a state, a
// reward curve).
type withExample interface{ plain() Example }

func (e Example) plain() Example      { return e }
func (e StateExample) plain() Example { return e.Example }
func (e CurveExample) plain() Example { return e.Example }

// plainExamples returns the examples without what they carry (for
// SetPrior).
func plainExamples[T withExample](ex []T) []Example {
	out := make([]Example, len(ex))
	for i, e := range ex {
		out[i] = e.plain()
	}
	return out
}

// MarshalStateModel writes m as indented JSON with info as its training
// record.
func MarshalStateModel(m *StateModel, info TrainingInfo) ([]byte, error) {
	return marshalTrained(m, &m.Training, info)
}
