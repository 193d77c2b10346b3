package sage

import (
	"math"
	"math/rand/v2"
)

// mlp is the critic: dense layers with ReLU between them and a linear
// output, evaluated one sample at a time with its activations kept for
// the backward pass.
type mlp struct {
	sizes  []int
	p, g   []float64
	offW   []int // per layer: offset of W (row-major out×in), then b
	act    [][]float64
	dact   [][]float64
	mo, ve []float64
	t      int
}

func newMLP(sizes []int, rng *rand.Rand) *mlp {
	m := &mlp{sizes: sizes}
	off := 0
	for l := 0; l+1 < len(sizes); l++ {
		m.offW = append(m.offW, off)
		in, out := sizes[l], sizes[l+1]
		lim := math.Sqrt(6 / float64(in+out)) // Glorot uniform
		for range in * out {
			m.p = append(m.p, lim*(2*rng.Float64()-1))
		}
		m.p = append(m.p, make([]float64, out)...)
		off += in*out + out
	}
	m.g, m.mo, m.ve = make([]float64, off), make([]float64, off), make([]float64, off)
	for _, n := range sizes {
		m.act = append(m.act, make([]float64, n))
		m.dact = append(m.dact, make([]float64, n))
	}
	return m
}

// forward evaluates the network at x (len sizes[0]), keeping the pass.
func (m *mlp) forward(x []float64) float64 {
	copy(m.act[0], x)
	last := len(m.sizes) - 2
	for l := 0; l <= last; l++ {
		in, out := m.sizes[l], m.sizes[l+1]
		o := m.offW[l]
		dense(m.act[l+1], m.p[o:], m.p[o+in*out:], m.act[l], in)
		if l < last {
			for j := range out {
				m.act[l+1][j] = max(m.act[l+1][j], 0)
			}
		}
	}
	return m.act[len(m.sizes)-1][0]
}

// backward adds to the gradient the effect of dy, the loss's derivative
// by the output of the last forward pass.
func (m *mlp) backward(dy float64) {
	L := len(m.sizes) - 1
	m.dact[L][0] = dy
	for l := L - 1; l >= 0; l-- {
		in, out := m.sizes[l], m.sizes[l+1]
		o := m.offW[l]
		clear(m.dact[l])
		for j := range out {
			d := m.dact[l+1][j]
			if l < L-1 && m.act[l+1][j] <= 0 {
				d = 0 // ReLU
			}
			if d == 0 {
				continue
			}
			m.g[o+in*out+j] += d
			row := o + j*in
			for i, x := range m.act[l] {
				m.g[row+i] += d * x
				m.dact[l][i] += d * m.p[row+i]
			}
		}
	}
}

// adamStep applies Adam (Kingma and Ba 2015; β1 0.9, β2 0.999, ε 1e-8)
// to p with gradient g scaled by scale, after clipping g's norm to
// maxNorm (config-rl-offline.yaml max_grad_norm 40), and clears g.
func adamStep(p, g, mo, ve []float64, t *int, lr, scale, maxNorm float64) {
	norm := 0.0
	for _, v := range g {
		norm += v * v * scale * scale
	}
	if norm = math.Sqrt(norm); norm > maxNorm {
		scale *= maxNorm / norm
	}
	*t++
	c1 := 1 - math.Pow(0.9, float64(*t))
	c2 := 1 - math.Pow(0.999, float64(*t))
	for i := range p {
		gi := g[i] * scale
		mo[i] = 0.9*mo[i] + 0.1*gi
		ve[i] = 0.999*ve[i] + 0.001*gi*gi
		p[i] -= lr * (mo[i] / c1) / (math.Sqrt(ve[i]/c2) + 1e-8)
		g[i] = 0
	}
}
