package actor

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/cc/monitor"
)

// maxWidth bounds a layer's width (and the input size) in a file, so no
// input exhausts memory (the trained actors' layers are 64 wide).
const maxWidth = 4096

// Layer is one dense layer: Out rows of In weights, row-major, and Out
// biases.
type Layer struct {
	In  int       `json:"in"`
	Out int       `json:"out"`
	W   []float32 `json:"w"`
	B   []float32 `json:"b"`
}

// Actor is a loaded actor ready for allocation-free inference.
type Actor struct {
	layers []Layer
	dim    int
	buf    [2][]float64
}

// New checks layers and builds an actor of dim inputs over them (not
// copied): each layer's input the previous layer's output, the first's
// dim, the last's output 1, every weight finite.
func New(name string, dim int, layers []Layer) (*Actor, error) {
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
		for _, v := range l.B {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("%s: layers[%d].b: non-finite bias", name, i)
			}
		}
		in, widest = l.Out, max(widest, l.Out)
	}
	if in != 1 {
		return nil, fmt.Errorf("%s: output width %d (want 1: the action)", name, in)
	}
	w := max(widest, dim)
	return &Actor{layers: layers, dim: dim, buf: [2][]float64{make([]float64, w), make([]float64, w)}}, nil
}

// Dim is the actor's input size.
func (a *Actor) Dim() int { return a.dim }

// Layers is the actor's weights (shared, not copied).
func (a *Actor) Layers() []Layer { return a.layers }

// Act returns the action for state s (len Dim) in [−1, 1]. It allocates
// nothing; an Actor serves one flow (its scratch is its own).
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
	b, _ := New("clone", a.dim, a.layers)
	return b
}

// Decider is a controller's decider acting with an actor A,
// deterministically: the action of each monitor period is A's for the
// state (the cc/orca and cc/astraea Decider method).
type Decider struct{ A *Actor }

// Decide runs the actor on state s.
func (d Decider) Decide(_ time.Duration, _ *monitor.Interval, s []float32, _ float32) float32 {
	return d.A.Act(s)
}
