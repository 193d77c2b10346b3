package leocc

import (
	"math"
	"testing"
)

// TestKalmanGainSequence: with q = r = 4 and p0 = 25 the first gain is
// 29/33 and the gains converge to the golden-ratio conjugate (√5−1)/2,
// the root of the steady-state Riccati equation.
func TestKalmanGainSequence(t *testing.T) {
	golden := (math.Sqrt(5) - 1) / 2
	if g := steadyGain(kalmanQ, kalmanR); math.Abs(g-golden) > 1e-12 {
		t.Fatalf("steadyGain = %v, want (√5−1)/2 = %v", g, golden)
	}
	f := newKalman(kalmanQ, kalmanR, kalmanP0)
	f.update(1)
	if want := 29.0 / 33; math.Abs(f.k-want) > 1e-12 {
		t.Errorf("first gain %v, want 29/33 = %v", f.k, want)
	}
	for range 10 {
		f.update(1)
	}
	if math.Abs(f.k-golden) > 1e-6 {
		t.Errorf("gain after 11 updates %v, want %v", f.k, golden)
	}
}

// TestKalmanTracksStep: the error after a step shrinks by (1−k) per update,
// so a step is tracked to 1% in ⌈ln 0.01 / ln(1−0.618)⌉ = 5 updates, in
// any units (bytes/s or nanoseconds of RTT).
func TestKalmanTracksStep(t *testing.T) {
	for _, scale := range []float64{1, 12.5e6, 40e6} {
		f := newKalman(kalmanQ, kalmanR, kalmanP0)
		for range 20 {
			f.update(scale)
		}
		if math.Abs(f.x-scale) > 1e-6*scale {
			t.Fatalf("scale %v: estimate %v after 20 constant updates", scale, f.x)
		}
		n := 0
		for math.Abs(f.x-2*scale) > 0.01*scale {
			prevErr := 2*scale - f.x
			f.update(2 * scale)
			n++
			if got, want := 2*scale-f.x, prevErr*(1-f.k); math.Abs(got-want) > 1e-9*scale {
				t.Fatalf("scale %v: error %v after update, want (1−k)·%v = %v", scale, got, prevErr, want)
			}
		}
		want := int(math.Ceil(math.Log(0.01) / math.Log(1-steadyGain(kalmanQ, kalmanR))))
		if n != want {
			t.Errorf("scale %v: step tracked to 1%% in %d updates, want %d", scale, n, want)
		}
	}
}
