package orca

import (
	"encoding/json"
	"fmt"
	"math"
	"os"

	"github.com/leolab/leolab/cc"
)

// ActorFormat names the actor file format; ActorVersion is its version.
const (
	ActorFormat  = "leolab-orca-actor"
	ActorVersion = 1
	// maxWidth bounds a layer's width in a file, so no input exhausts
	// memory (the trained actor's layers are 64 wide).
	maxWidth = 4096
)

// Layer is one dense layer: Out rows of In weights, row-major, and Out
// biases.
type Layer struct {
	In  int       `json:"in"`
	Out int       `json:"out"`
	W   []float32 `json:"w"`
	B   []float32 `json:"b"`
}

// ActorFile is the actor's weights as stored (actor.json): dense layers,
// ReLU between them, tanh on the output.
type ActorFile struct {
	Format  string            `json:"format"`
	Version int               `json:"version"`
	Layers  []Layer           `json:"layers"`
	Meta    map[string]string `json:"meta,omitempty"` // how it was trained
}

// Actor is a loaded actor ready for allocation-free inference.
type Actor struct {
	layers []Layer
	dim    int
	buf    [2][]float64
}

// ParseActor reads an actor file and checks its shape: input StateDim,
// output 1, each layer's input the previous layer's output.
func ParseActor(name string, data []byte) (*Actor, error) { return ParseActorIn(name, StateDim, data) }

// ConfigActor is the actor of a learned controller named scheme with
// inputs in: the actor file cfg names under ParamModel, or without one
// the embedded actor (embeddedName, embedded), which must parse.
func ConfigActor(cfg cc.Config, scheme string, in int, embeddedName string, embedded []byte) (*Actor, error) {
	path := cfg.File(ParamModel)
	if path == "" {
		a, err := ParseActorIn(embeddedName, in, embedded)
		if err != nil {
			panic("leolab BUG: embedded " + scheme + " actor: " + err.Error())
		}
		return a, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", scheme, err)
	}
	a, err := ParseActorIn(path, in, data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", scheme, err)
	}
	return a, nil
}

// ParseActorIn is ParseActor for an input of dim values.
func ParseActorIn(name string, dim int, data []byte) (*Actor, error) {
	var f ActorFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if f.Format != ActorFormat || f.Version != ActorVersion {
		return nil, fmt.Errorf("%s: format %q version %d (want %q version %d)", name, f.Format, f.Version, ActorFormat, ActorVersion)
	}
	return NewActorIn(name, dim, f.Layers)
}

// NewActor checks layers and builds an actor of Orca's input size over
// them (not copied).
func NewActor(name string, layers []Layer) (*Actor, error) { return NewActorIn(name, StateDim, layers) }

// NewActorIn is NewActor for an input of dim values: the same network
// and file format serve other learned controllers (cc/astraea).
func NewActorIn(name string, dim int, layers []Layer) (*Actor, error) {
	if len(layers) == 0 {
		return nil, fmt.Errorf("%s: layers: none", name)
	}
	if dim <= 0 || dim > maxWidth {
		return nil, fmt.Errorf("%s: input size %d (want 1..%d)", name, dim, maxWidth)
	}
	in, widest := dim, 0
	for i, l := range layers {
		if l.In != in || l.Out <= 0 || l.Out > maxWidth || len(l.W) != l.In*l.Out || len(l.B) != l.Out {
			return nil, fmt.Errorf("%s: layers[%d]: in %d out %d with %d weights and %d biases (want in %d, out in [1, %d], in·out weights, out biases)",
				name, i, l.In, l.Out, len(l.W), len(l.B), in, maxWidth)
		}
		for _, v := range l.W {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("%s: layers[%d].w: non-finite weight", name, i)
			}
		}
		in, widest = l.Out, max(widest, l.Out)
	}
	if in != 1 {
		return nil, fmt.Errorf("%s: output width %d (want 1: the action)", name, in)
	}
	return &Actor{layers: layers, dim: dim, buf: [2][]float64{make([]float64, max(widest, dim)), make([]float64, max(widest, dim))}}, nil
}

// Act returns the action for state s (len StateDim) in [−1, 1]. It
// allocates nothing; an Actor serves one flow (its scratch is its own).
func (a *Actor) Act(s []float32) float32 {
	x := a.buf[0][:len(s)]
	for i, v := range s {
		x[i] = float64(v)
	}
	for li := range a.layers {
		l := &a.layers[li]
		y := a.buf[(li+1)%2][:l.Out]
		for o := range l.Out {
			row := l.W[o*l.In : (o+1)*l.In]
			sum := float64(l.B[o])
			for i, w := range row {
				sum += float64(w) * x[i]
			}
			if li < len(a.layers)-1 {
				sum = max(sum, 0) // ReLU
			}
			y[o] = sum
		}
		x = y
	}
	return float32(math.Tanh(x[0]))
}

// Clone is an actor over the same weights with its own scratch.
func (a *Actor) Clone() *Actor {
	b, _ := NewActorIn("clone", a.dim, a.layers)
	return b
}
