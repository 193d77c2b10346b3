package sage

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/leolab/leolab/cc"
)

// PolicyFormat names the policy file format; PolicyVersion is its
// version.
const (
	PolicyFormat  = "leolab-sage-policy"
	PolicyVersion = 1
	// maxHidden bounds the GRU's width in a file so that no input
	// exhausts memory (the trained policy's is 32).
	maxHidden = 1024
)

// PolicyFile is the policy as stored (policy.json): a GRU of Hidden units
// over inputs of In features (Cho et al. 2014: z = σ(Wz·[x;h] + bz), r =
// σ(Wr·[x;h] + br), n = tanh(Wn·[x; r⊙h] + bn), h ← (1−z)⊙n + z⊙h), each
// W row-major Hidden×(In+Hidden), read over Window periods from h = 0,
// and the head a = 2·tanh(V·h + C).
type PolicyFile struct {
	Format  string            `json:"format"`
	Version int               `json:"version"`
	In      int               `json:"in"`
	Hidden  int               `json:"hidden"`
	Window  int               `json:"window"`
	Wz      []float32         `json:"wz"`
	Bz      []float32         `json:"bz"`
	Wr      []float32         `json:"wr"`
	Br      []float32         `json:"br"`
	Wn      []float32         `json:"wn"`
	Bn      []float32         `json:"bn"`
	V       []float32         `json:"v"`
	C       float32           `json:"c"`
	Meta    map[string]string `json:"meta,omitempty"`
}

// Policy is a loaded policy ready for allocation-free inference; it
// serves one flow (its scratch is its own).
type Policy struct {
	f *PolicyFile
	// the weights widened once to float64, so that Act converts nothing
	wz, wr, wn, bz, br, bn, v []float64
	c                         float64
	h, xh, z, r, n            []float64
}

// ParsePolicy reads a policy file (name is for errors) and checks its
// shape against this package's features and window.
func ParsePolicy(name string, data []byte) (*Policy, error) {
	var f PolicyFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return NewPolicy(name, &f)
}

// NewPolicy checks f (not copied) and builds a policy over it.
func NewPolicy(name string, f *PolicyFile) (*Policy, error) {
	if f.Format != PolicyFormat || f.Version != PolicyVersion {
		return nil, fmt.Errorf("%s: format %q version %d (want %q version %d)", name, f.Format, f.Version, PolicyFormat, PolicyVersion)
	}
	if f.In != NumFeatures || f.Window != Window {
		return nil, fmt.Errorf("%s: in %d window %d (want in %d, window %d)", name, f.In, f.Window, NumFeatures, Window)
	}
	if f.Hidden < 1 || f.Hidden > maxHidden {
		return nil, fmt.Errorf("%s: hidden %d (want 1..%d)", name, f.Hidden, maxHidden)
	}
	h, w := f.Hidden, f.Hidden*(f.In+f.Hidden)
	for _, c := range []struct {
		field string
		v     []float32
		n     int
	}{{"wz", f.Wz, w}, {"wr", f.Wr, w}, {"wn", f.Wn, w}, {"bz", f.Bz, h}, {"br", f.Br, h}, {"bn", f.Bn, h}, {"v", f.V, h}} {
		if len(c.v) != c.n {
			return nil, fmt.Errorf("%s: %s: %d values (want %d for in %d, hidden %d)", name, c.field, len(c.v), c.n, f.In, f.Hidden)
		}
		for _, x := range c.v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("%s: %s: non-finite weight", name, c.field)
			}
		}
	}
	if math.IsNaN(float64(f.C)) || math.IsInf(float64(f.C), 0) {
		return nil, fmt.Errorf("%s: c: non-finite", name)
	}
	wide := func(v []float32) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = float64(x)
		}
		return out
	}
	return &Policy{f: f, wz: wide(f.Wz), wr: wide(f.Wr), wn: wide(f.Wn), bz: wide(f.Bz), br: wide(f.Br), bn: wide(f.Bn), v: wide(f.V), c: float64(f.C),
		h: make([]float64, h), xh: make([]float64, f.In+h), z: make([]float64, h), r: make([]float64, h), n: make([]float64, h)}, nil
}

// File is the policy's weights.
func (p *Policy) File() *PolicyFile { return p.f }

// Act returns the action in [−2, 2] for state s (Window·NumFeatures
// values, oldest period first). It allocates nothing.
func (p *Policy) Act(s []float32) float32 {
	in, H := p.f.In, p.f.Hidden
	clear(p.h)
	for t := range p.f.Window {
		x := s[t*in : (t+1)*in]
		for i, v := range x {
			p.xh[i] = float64(v)
		}
		copy(p.xh[in:], p.h)
		affine(p.z, p.wz, p.bz, p.xh)
		affine(p.r, p.wr, p.br, p.xh)
		for j := range H {
			p.z[j] = sigmoid(p.z[j])
			p.xh[in+j] = sigmoid(p.r[j]) * p.h[j]
		}
		affine(p.n, p.wn, p.bn, p.xh)
		for j := range H {
			p.h[j] = (1-p.z[j])*math.Tanh(p.n[j]) + p.z[j]*p.h[j]
		}
	}
	y := p.c
	for j, v := range p.v {
		y += v * p.h[j]
	}
	return float32(ActionMax * math.Tanh(y))
}

// affine is out = W·x + b, W row-major len(out)×len(x).
func affine(out, w, b, x []float64) {
	k := len(x)
	for j := range out {
		row := w[j*k : (j+1)*k]
		sum := b[j]
		for i, v := range row {
			sum += v * x[i]
		}
		out[j] = sum
	}
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// configPolicy is the policy cfg names under ParamModel, or without one
// the embedded policy (which must parse).
func configPolicy(cfg cc.Config) (*Policy, error) {
	return cc.LoadModel(cfg, "sage", ParamModel, "cc/sage/policy.json", defaultPolicyJSON, ParsePolicy)
}
