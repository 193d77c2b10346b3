package sage

import (
	"math"
	"math/rand/v2"
	"testing"

	csage "github.com/leolab/leolab/cc/sage"
)

// Backpropagation through time matches central finite differences of
// the loss ½μ² for every parameter of a small GRU, to 1e-6 relative.
func TestGRUGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := newGRU(csage.NumFeatures, 5, csage.Window, rng)
	for i := range m.p {
		m.p[i] = 0.6 * (2*rng.Float64() - 1) // biases and head too
	}
	s := make([]float32, StateDim)
	for i := range s {
		s[i] = float32(2*rng.Float64() - 1)
	}
	mu := m.mu(s)
	m.backward(mu) // d(½μ²)/dμ = μ
	const eps = 1e-6
	for i := range m.p {
		p := m.p[i]
		m.p[i] = p + eps
		up := m.mu(s)
		m.p[i] = p - eps
		down := m.mu(s)
		m.p[i] = p
		num := (up*up - down*down) / 2 / (2 * eps)
		if d := math.Abs(num - m.g[i]); d > 1e-6*max(1, math.Abs(num)) {
			t.Fatalf("parameter %d: backprop %v, finite differences %v", i, m.g[i], num)
		}
	}
}

// The critic's backward pass matches finite differences of ½Q².
func TestMLPGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	m := newMLP([]int{4, 6, 5, 1}, rng)
	x := []float64{0.3, -0.7, 1.1, 0.2}
	q := m.forward(x)
	m.backward(q)
	const eps = 1e-6
	for i := range m.p {
		p := m.p[i]
		m.p[i] = p + eps
		up := m.forward(x)
		m.p[i] = p - eps
		down := m.forward(x)
		m.p[i] = p
		num := (up*up - down*down) / 2 / (2 * eps)
		if d := math.Abs(num - m.g[i]); d > 1e-5*max(1, math.Abs(num)) {
			t.Fatalf("parameter %d: backprop %v, finite differences %v", i, m.g[i], num)
		}
	}
}

// cc/sage's inference computes the trained network's output from the
// exported file (float32 weights: agreement to 1e-5).
func TestExportMatchesInference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	m := newGRU(csage.NumFeatures, 32, csage.Window, rng)
	for i := range m.p {
		m.p[i] = 0.5 * (2*rng.Float64() - 1)
	}
	p, err := csage.NewPolicy("test", m.file(nil))
	if err != nil {
		t.Fatal(err)
	}
	s := make([]float32, StateDim)
	for k := range 5 {
		for i := range s {
			s[i] = float32(rng.Float64())
		}
		if got, want := float64(p.Act(s)), m.mu(s); math.Abs(got-want) > 1e-5 {
			t.Fatalf("state %d: inference %v, training %v", k, got, want)
		}
	}
}
