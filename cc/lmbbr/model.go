package lmbbr

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/leolab/leolab/cc/bbr"
)

// Phases the model chooses gains for (the keys of Model.Phases).
const (
	PhaseUp   = "UP"
	PhaseDown = "DOWN"
)

// Model is a multinomial logistic regression per ProbeBW phase: the
// logit of gain k is Weights[k]·x, and the policy takes the most probable
// gain. It is the JSON document embedded as model.json.
type Model struct {
	// Format and Version declare the file (LinearFormat, LinearVersion).
	Format   string                `json:"format"`
	Version  int                   `json:"version"`
	Features []string              `json:"features"`
	Phases   map[string]PhaseModel `json:"phases"`
	// Training describes how the weights were obtained (free-form; not
	// read by inference).
	Training json.RawMessage `json:"training,omitempty"`
}

// PhaseModel holds one phase's classes (gains, ascending) and weights,
// one row of NumFeatures per gain.
type PhaseModel struct {
	Gains   []float64   `json:"gains"`
	Weights [][]float64 `json:"weights"`
}

//go:embed model.json
var defaultModelJSON []byte

// embeddedModelName names the embedded model in errors.
const embeddedModelName = "cc/lmbbr/model.json"

// DefaultModel returns the embedded model (a fresh copy).
func DefaultModel() *Model {
	m, err := ParseModel(defaultModelJSON)
	if err != nil {
		panic("leolab BUG: embedded lmbbr model: " + err.Error())
	}
	return m
}

// ParseModel reads and validates a model document.
func ParseModel(data []byte) (*Model, error) {
	var m Model
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("lmbbr model: %w", err)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// The linear model's file format: a JSON document that names it.
const (
	LinearFormat  = "leolab-linear"
	LinearVersion = 1
)

// Validate checks the declared format and version, the feature list and
// that every phase's gains are feasible for it (paper 003 eq. 15) with one
// weight row per gain.
func (m *Model) Validate() error {
	if m.Format != LinearFormat || m.Version != LinearVersion {
		return fmt.Errorf("lmbbr model: format %q version %d, want %q version %d", m.Format, m.Version, LinearFormat, LinearVersion)
	}
	if !slices.Equal(m.Features, FeatureNames[:]) {
		return fmt.Errorf("lmbbr model: features %v, want %v", m.Features, FeatureNames)
	}
	for _, ph := range []string{PhaseUp, PhaseDown} {
		pm, ok := m.Phases[ph]
		if !ok {
			return fmt.Errorf("lmbbr model: no %s phase", ph)
		}
		lo, hi := feasible(ph)
		if len(pm.Gains) == 0 || len(pm.Weights) != len(pm.Gains) {
			return fmt.Errorf("lmbbr model: %s: %d gains, %d weight rows", ph, len(pm.Gains), len(pm.Weights))
		}
		for k, g := range pm.Gains {
			if !(g >= lo && g <= hi) || (k > 0 && g <= pm.Gains[k-1]) {
				return fmt.Errorf("lmbbr model: %s: gains %v not ascending in [%g, %g]", ph, pm.Gains, lo, hi)
			}
			if len(pm.Weights[k]) != NumFeatures {
				return fmt.Errorf("lmbbr model: %s: weight row %d has %d values, want %d", ph, k, len(pm.Weights[k]), NumFeatures)
			}
			for _, w := range pm.Weights[k] {
				if math.IsNaN(w) || math.IsInf(w, 0) {
					return fmt.Errorf("lmbbr model: %s: weight row %d is not finite", ph, k)
				}
			}
		}
	}
	return nil
}

// feasible is phase ph's gain interval (bbr's UpGain*/DownGain*).
func feasible(ph string) (lo, hi float64) {
	if ph == PhaseDown {
		return bbr.DownGainMin, bbr.DownGainMax
	}
	return bbr.UpGainMin, bbr.UpGainMax
}

// Probs returns the softmax over phase ph's gains of the logits W·x.
func (pm PhaseModel) Probs(x Vector) []float64 {
	return Softmax(pm.Weights, x[:])
}

// Softmax returns the softmax of the logits w·x, one per row of w (x of
// any length, bias first), shifted by the largest logit so no exp
// overflows. learn's training uses it, so a model trains on the very
// probabilities lmbbr computes.
func Softmax(w [][]float64, x []float64) []float64 {
	p := make([]float64, len(w))
	mx := math.Inf(-1)
	for k, row := range w {
		for j, v := range x {
			p[k] += row[j] * v
		}
		mx = max(mx, p[k])
	}
	var s float64
	for k := range p {
		p[k] = math.Exp(p[k] - mx)
		s += p[k]
	}
	for k := range p {
		p[k] /= s
	}
	return p
}

// Predict returns the most probable gain of phase ph: the argmax of the
// logits, which is the softmax's (the lower gain on a tie).
func (m *Model) Predict(ph string, x Vector) float64 {
	pm := m.Phases[ph]
	best, bestL := 0, math.Inf(-1)
	for k, w := range pm.Weights {
		var l float64
		for j, v := range x {
			l += w[j] * v
		}
		if l > bestL {
			best, bestL = k, l
		}
	}
	return pm.Gains[best]
}
