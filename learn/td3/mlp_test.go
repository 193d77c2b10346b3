package td3

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The backward pass matches central finite differences of
// L = Σ c·y for a random network, batch and output weights c, for the
// weights of every layer and for the input.
func TestBackwardFiniteDifferences(t *testing.T) {
	for _, tanh := range []bool{false, true} {
		r := rand.New(rand.NewPCG(1, 2))
		m := newMLP([]int{5, 7, 6, 2}, tanh, 0, r)
		const batch = 3
		x := make([]float64, batch*5)
		c := make([]float64, batch*2)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		for i := range c {
			c[i] = r.NormFloat64()
		}
		loss := func() float64 {
			var tp tape
			y := m.forward(x, batch, &tp)
			s := 0.0
			for i := range y {
				s += c[i] * y[i]
			}
			return s
		}
		var tp tape
		m.zeroGrad()
		m.forward(x, batch, &tp)
		dx := append([]float64(nil), m.backward(c, batch, &tp)...)
		const h = 1e-6
		check := func(what string, p *float64, g float64) {
			old := *p
			*p = old + h
			up := loss()
			*p = old - h
			down := loss()
			*p = old
			if fd := (up - down) / (2 * h); math.Abs(fd-g) > 1e-5*(1+math.Abs(fd)) {
				t.Fatalf("tanh %v: %s: backward %v, finite difference %v", tanh, what, g, fd)
			}
		}
		for l, d := range m.layers {
			for i := range d.w {
				check("w", &d.w[i], d.gw[i])
			}
			for i := range d.b {
				check("b", &d.b[i], d.gb[i])
			}
			_ = l
		}
		for i := range x {
			check("x", &x[i], dx[i])
		}
	}
}

// Adam fits a linear map y = 2x − 1 with a one-layer network.
func TestAdamFits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	m := newMLP([]int{1, 1}, false, 0, r)
	var tp tape
	x := []float64{-1, 0, 0.5, 1}
	dy := make([]float64, 4)
	for range 3000 {
		y := m.forward(x, 4, &tp)
		for i := range y {
			dy[i] = 2 * (y[i] - (2*x[i] - 1)) / 4
		}
		m.zeroGrad()
		m.backward(dy, 4, &tp)
		m.adam(0.01)
	}
	if w, b := m.layers[0].w[0], m.layers[0].b[0]; math.Abs(w-2) > 1e-3 || math.Abs(b+1) > 1e-3 {
		t.Fatalf("fit w %v b %v, want 2, −1", w, b)
	}
}
