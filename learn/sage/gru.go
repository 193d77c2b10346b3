package sage

import (
	"math"
	"math/rand/v2"

	csage "github.com/leolab/leolab/cc/sage"
)

// gru is the trainable policy: the GRU and head of cc/sage's PolicyFile,
// with every parameter in one flat slice (for Adam and gradient
// clipping), its gradient, and a tape of the last forward pass for
// backpropagation through time.
type gru struct {
	in, h, win int
	p, g       []float64 // parameters, gradients
	// offsets of Wz, Bz, Wr, Br, Wn, Bn, V, C in p
	oWz, oBz, oWr, oBr, oWn, oBn, oV, oC int
	tape                                 []gruStep
	hT                                   []float64 // the last hidden state
	y                                    float64   // the head's pre-tanh output
	dh, dxh, dxrh                        []float64
	mo, ve                               []float64 // Adam moments
	t                                    int
}

// gruStep is one time step's values kept for the backward pass.
type gruStep struct {
	xh, xrh    []float64 // [x; h_prev], [x; r⊙h_prev]
	hPrev      []float64
	z, r, n, h []float64
}

func newGRU(in, hidden, win int, rng *rand.Rand) *gru {
	k := in + hidden
	m := &gru{in: in, h: hidden, win: win}
	off := 0
	take := func(n int) int { o := off; off += n; return o }
	m.oWz, m.oBz = take(hidden*k), take(hidden)
	m.oWr, m.oBr = take(hidden*k), take(hidden)
	m.oWn, m.oBn = take(hidden*k), take(hidden)
	m.oV, m.oC = take(hidden), take(1)
	m.p, m.g = make([]float64, off), make([]float64, off)
	m.mo, m.ve = make([]float64, off), make([]float64, off)
	// Glorot-uniform gates (Glorot and Bengio 2010), zero biases; a small
	// head so that the initial policy holds the window (a ≈ 0).
	lim := math.Sqrt(6 / float64(k+hidden))
	for _, o := range []int{m.oWz, m.oWr, m.oWn} {
		for i := range hidden * k {
			m.p[o+i] = lim * (2*rng.Float64() - 1)
		}
	}
	for i := range hidden {
		m.p[m.oV+i] = 0.01 * (2*rng.Float64() - 1)
	}
	m.tape = make([]gruStep, win)
	for t := range m.tape {
		s := &m.tape[t]
		s.xh, s.xrh = make([]float64, k), make([]float64, k)
		s.hPrev, s.z, s.r, s.n, s.h = make([]float64, hidden), make([]float64, hidden), make([]float64, hidden), make([]float64, hidden), make([]float64, hidden)
	}
	m.hT = make([]float64, hidden)
	m.dh, m.dxh, m.dxrh = make([]float64, hidden), make([]float64, k), make([]float64, k)
	return m
}

// mu is the policy's mean action for state s (win·in values), taping
// the pass.
func (m *gru) mu(s []float32) float64 {
	in, H, k := m.in, m.h, m.in+m.h
	clear(m.hT)
	for t := range m.win {
		st := &m.tape[t]
		copy(st.hPrev, m.hT)
		for i := range in {
			st.xh[i] = float64(s[t*in+i])
		}
		copy(st.xh[in:], m.hT)
		dense(st.z, m.p[m.oWz:], m.p[m.oBz:], st.xh, k)
		dense(st.r, m.p[m.oWr:], m.p[m.oBr:], st.xh, k)
		for j := range H {
			st.z[j] = sigmoid(st.z[j])
			st.r[j] = sigmoid(st.r[j])
		}
		copy(st.xrh, st.xh[:in])
		for j := range H {
			st.xrh[in+j] = st.r[j] * m.hT[j]
		}
		dense(st.n, m.p[m.oWn:], m.p[m.oBn:], st.xrh, k)
		for j := range H {
			st.n[j] = math.Tanh(st.n[j])
			m.hT[j] = (1-st.z[j])*st.n[j] + st.z[j]*m.hT[j]
		}
		copy(st.h, m.hT)
	}
	y := m.p[m.oC]
	for j := range H {
		y += m.p[m.oV+j] * m.hT[j]
	}
	m.y = y
	return csage.ActionMax * math.Tanh(y)
}

// backward adds to the gradient the effect of dmu, the loss's derivative
// by the mean of the last mu call.
func (m *gru) backward(dmu float64) {
	in, H, k := m.in, m.h, m.in+m.h
	th := math.Tanh(m.y)
	dy := dmu * csage.ActionMax * (1 - th*th)
	m.g[m.oC] += dy
	for j := range H {
		m.g[m.oV+j] += dy * m.hT[j]
		m.dh[j] = dy * m.p[m.oV+j]
	}
	for t := m.win - 1; t >= 0; t-- {
		st := &m.tape[t]
		clear(m.dxh)
		clear(m.dxrh)
		// n path: dan = dh·(1−z)·(1−n²)
		for j := range H {
			dan := m.dh[j] * (1 - st.z[j]) * (1 - st.n[j]*st.n[j])
			m.g[m.oBn+j] += dan
			row := m.oWn + j*k
			for i, x := range st.xrh {
				m.g[row+i] += dan * x
				m.dxrh[i] += dan * m.p[row+i]
			}
		}
		// z and r paths
		for j := range H {
			daz := m.dh[j] * (st.hPrev[j] - st.n[j]) * st.z[j] * (1 - st.z[j])
			dar := m.dxrh[in+j] * st.hPrev[j] * st.r[j] * (1 - st.r[j])
			m.g[m.oBz+j] += daz
			m.g[m.oBr+j] += dar
			rz, rr := m.oWz+j*k, m.oWr+j*k
			for i, x := range st.xh {
				m.g[rz+i] += daz * x
				m.g[rr+i] += dar * x
				m.dxh[i] += daz*m.p[rz+i] + dar*m.p[rr+i]
			}
		}
		// the previous hidden state: through z, r⊙h and [x; h]
		for j := range H {
			m.dh[j] = m.dh[j]*st.z[j] + m.dxrh[in+j]*st.r[j] + m.dxh[in+j]
		}
	}
}

// dense is out = W·x + b over rows of k.
func dense(out, w, b, x []float64, k int) {
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

// file is the policy as cc/sage stores it.
func (m *gru) file(meta map[string]string) *csage.PolicyFile {
	k := m.in + m.h
	f32 := func(o, n int) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = float32(m.p[o+i])
		}
		return out
	}
	return &csage.PolicyFile{Format: csage.PolicyFormat, Version: csage.PolicyVersion, In: m.in, Hidden: m.h, Window: m.win,
		Wz: f32(m.oWz, m.h*k), Bz: f32(m.oBz, m.h), Wr: f32(m.oWr, m.h*k), Br: f32(m.oBr, m.h),
		Wn: f32(m.oWn, m.h*k), Bn: f32(m.oBn, m.h), V: f32(m.oV, m.h), C: float32(m.p[m.oC]), Meta: meta}
}
