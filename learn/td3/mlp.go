package td3

import (
	"math"
	"math/rand/v2"
)

// dense is one fully connected layer: w is [out][in] row-major (the
// layout of learn/actor.Layer).
type dense struct {
	in, out int
	w, b    []float64
	gw, gb  []float64 // accumulated gradients
	mw, vw  []float64 // Adam moments
	mb, vb  []float64
}

// MLP is a dense network: ReLU between layers, the output linear or tanh.
type MLP struct {
	layers []*dense
	tanh   bool
	steps  int // Adam steps taken
}

// newMLP builds sizes[0] → … → sizes[n] with PyTorch's default uniform
// init U(±1/√in) and the last layer U(±lastInit) (DDPG's 3·10⁻³ keeps a
// new actor's outputs near 0, Lillicrap et al. 2016 §7).
func newMLP(sizes []int, tanh bool, lastInit float64, r *rand.Rand) *MLP {
	m := &MLP{tanh: tanh}
	for i := 0; i+1 < len(sizes); i++ {
		in, out := sizes[i], sizes[i+1]
		d := &dense{in: in, out: out, w: make([]float64, in*out), b: make([]float64, out),
			gw: make([]float64, in*out), gb: make([]float64, out),
			mw: make([]float64, in*out), vw: make([]float64, in*out), mb: make([]float64, out), vb: make([]float64, out)}
		lim := 1 / math.Sqrt(float64(in))
		if i+2 == len(sizes) && lastInit > 0 {
			lim = lastInit
		}
		for j := range d.w {
			d.w[j] = (2*r.Float64() - 1) * lim
		}
		for j := range d.b {
			d.b[j] = (2*r.Float64() - 1) * lim
		}
		m.layers = append(m.layers, d)
	}
	return m
}

// inDim and outDim are the network's input and output widths.
func (m *MLP) inDim() int  { return m.layers[0].in }
func (m *MLP) outDim() int { return m.layers[len(m.layers)-1].out }

// tape keeps a batch's activations for the backward pass; its buffers
// are reused between calls of the same batch size.
type tape struct {
	acts [][]float64 // acts[l]: input of layer l, [B][in]; acts[L]: output
	grad [2][]float64
}

// forward runs a batch x ([B][in]) and returns the output [B][out]
// (owned by t).
func (m *MLP) forward(x []float64, batch int, t *tape) []float64 {
	if len(t.acts) != len(m.layers)+1 {
		t.acts = make([][]float64, len(m.layers)+1)
	}
	t.acts[0] = x
	for l, d := range m.layers {
		y := grow(&t.acts[l+1], batch*d.out)
		in := t.acts[l]
		last := l == len(m.layers)-1
		for n := range batch {
			xi := in[n*d.in : (n+1)*d.in]
			for o := range d.out {
				row := d.w[o*d.in : (o+1)*d.in]
				s := d.b[o]
				for i, w := range row {
					s += w * xi[i]
				}
				switch {
				case !last:
					s = math.Max(s, 0)
				case m.tanh:
					s = math.Tanh(s)
				}
				y[n*d.out+o] = s
			}
		}
	}
	return t.acts[len(m.layers)]
}

// backward takes dL/dy of the last forward's output, accumulates the
// gradients of every weight and returns dL/dx ([B][in], owned by t).
func (m *MLP) backward(dy []float64, batch int, t *tape) []float64 {
	g := grow(&t.grad[0], len(dy))
	copy(g, dy)
	for l := len(m.layers) - 1; l >= 0; l-- {
		d := m.layers[l]
		y, x := t.acts[l+1], t.acts[l]
		for j := range g { // through the activation
			switch {
			case l < len(m.layers)-1:
				if y[j] <= 0 {
					g[j] = 0
				}
			case m.tanh:
				g[j] *= 1 - y[j]*y[j]
			}
		}
		dx := grow(&t.grad[1], batch*d.in)
		clear(dx)
		for n := range batch {
			xi := x[n*d.in : (n+1)*d.in]
			di := dx[n*d.in : (n+1)*d.in]
			for o := range d.out {
				go_ := g[n*d.out+o]
				if go_ == 0 {
					continue
				}
				d.gb[o] += go_
				row := d.w[o*d.in : (o+1)*d.in]
				grow := d.gw[o*d.in : (o+1)*d.in]
				for i, w := range row {
					grow[i] += go_ * xi[i]
					di[i] += go_ * w
				}
			}
		}
		t.grad[0], t.grad[1] = t.grad[1], t.grad[0]
		g = t.grad[0][:batch*d.in]
	}
	return g
}

// zeroGrad clears the accumulated gradients.
func (m *MLP) zeroGrad() {
	for _, d := range m.layers {
		clear(d.gw)
		clear(d.gb)
	}
}

// Adam's constants (Kingma and Ba, ICLR 2015, Algorithm 1 defaults).
const (
	adamB1  = 0.9
	adamB2  = 0.999
	adamEps = 1e-8
)

// adam takes one Adam step of rate lr on the accumulated gradients.
func (m *MLP) adam(lr float64) {
	m.steps++
	c1 := 1 - math.Pow(adamB1, float64(m.steps))
	c2 := 1 - math.Pow(adamB2, float64(m.steps))
	for _, d := range m.layers {
		adamStep(d.w, d.gw, d.mw, d.vw, lr, c1, c2)
		adamStep(d.b, d.gb, d.mb, d.vb, lr, c1, c2)
	}
}

func adamStep(p, g, mo, ve []float64, lr, c1, c2 float64) {
	for i := range p {
		mo[i] = adamB1*mo[i] + (1-adamB1)*g[i]
		ve[i] = adamB2*ve[i] + (1-adamB2)*g[i]*g[i]
		p[i] -= lr * (mo[i] / c1) / (math.Sqrt(ve[i]/c2) + adamEps)
	}
}

// clone is a copy of m's weights (fresh gradients and moments).
func (m *MLP) clone() *MLP {
	c := &MLP{tanh: m.tanh}
	for _, d := range m.layers {
		e := &dense{in: d.in, out: d.out, w: append([]float64(nil), d.w...), b: append([]float64(nil), d.b...),
			gw: make([]float64, len(d.w)), gb: make([]float64, len(d.b)),
			mw: make([]float64, len(d.w)), vw: make([]float64, len(d.w)), mb: make([]float64, len(d.b)), vb: make([]float64, len(d.b))}
		c.layers = append(c.layers, e)
	}
	return c
}

// softUpdate moves m's weights towards src: m ← τ·src + (1−τ)·m.
func (m *MLP) softUpdate(src *MLP, tau float64) {
	for l, d := range m.layers {
		s := src.layers[l]
		for i := range d.w {
			d.w[i] += tau * (s.w[i] - d.w[i])
		}
		for i := range d.b {
			d.b[i] += tau * (s.b[i] - d.b[i])
		}
	}
}

func grow(p *[]float64, n int) []float64 {
	if cap(*p) < n {
		*p = make([]float64, n)
	}
	*p = (*p)[:n]
	return *p
}
