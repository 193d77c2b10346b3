package pcckernel

import (
	"math"
	"testing"
)

// lossUtility is the utility at rate r of an interval of n segments with
// loss fraction l.
func lossUtility(r int64, l float64, n int64) int64 {
	lost := int64(math.Round(l * float64(n)))
	return utility(r, lost, n-lost)
}

// The fixed-point exponential follows e^x within 1 % (plus the 10^-3
// unit) over the range pcc_calc_utility feeds it, x in [−5, 10).
func TestFixedExp(t *testing.T) {
	for x := int64(-5000); x < 10000; x += 250 {
		got, want := float64(fixedExp(x)), 1000*math.Exp(float64(x)/1000)
		if math.Abs(got-want) > 0.01*want+1 {
			t.Errorf("fixedExp(%d) = %v, want %.1f", x, got, want)
		}
	}
}

// Allegro's utility is zero at L ≈ 7.44 % (the root of (1−L)/(1+e^{100(L−0.05)})
// = L), positive below and negative above; from 15 % on it is −r·L; with
// no loss it is r/(1+e^−5) ≈ 0.9933·r; with nothing accounted it loses to
// everything.
func TestUtilityShape(t *testing.T) {
	const r, n = 10_000_000, 100_000
	lo, hi := 0.0, 0.15
	for range 40 {
		m := (lo + hi) / 2
		if lossUtility(r, m, n) > 0 {
			lo = m
		} else {
			hi = m
		}
	}
	t.Logf("zero utility at L = %.4f", lo)
	if math.Abs(lo-0.0744) > 0.002 {
		t.Errorf("zero utility at L = %.4f, want 0.0744 ± 0.002", lo)
	}
	for _, l := range []float64{0, 0.01, 0.03, 0.05, 0.07, 0.073} {
		if u := lossUtility(r, l, n); u <= 0 {
			t.Errorf("L = %v: utility %d, want > 0", l, u)
		}
	}
	for _, l := range []float64{0.076, 0.08, 0.10, 0.12, 0.149} {
		if u := lossUtility(r, l, n); u >= 0 {
			t.Errorf("L = %v: utility %d, want < 0", l, u)
		}
	}
	for _, l := range []float64{0.15, 0.2, 0.5, 1} {
		if u, want := lossUtility(r, l, n), -r*l; math.Abs(float64(u)-want) > 1 {
			t.Errorf("L = %v: utility %d, want −r·L = %.0f", l, u, want)
		}
	}
	if u, want := float64(utility(r, 0, n)), r/(1+math.Exp(-5)); math.Abs(u/want-1) > 1e-3 {
		t.Errorf("no loss: utility %.0f, want r/(1+e^−5) = %.0f", u, want)
	}
	if u := utility(r, 0, 0); u != noUtility || u >= utility(r, n, 0) {
		t.Errorf("nothing accounted: utility %d, want the lowest value", u)
	}
	// The utility is of the target rate: with the same loss it scales with r.
	if a, b := lossUtility(r, 0.02, n), lossUtility(2*r, 0.02, n); math.Abs(float64(b)/float64(a)-2) > 1e-6 {
		t.Errorf("utility at 2r / at r = %v, want 2", float64(b)/float64(a))
	}
}

// Slow start's score is utility per unit of rate, ×0.75 when positive
// and ×1 when negative: two loss-free intervals at different rates score
// the same in the module's integer arithmetic.
func TestSlowStartScore(t *testing.T) {
	a := slowStartScore(utility(524288, 0, 30), 524288)
	b := slowStartScore(utility(560000, 0, 33), 560000)
	if a != b || a != 745 {
		t.Errorf("loss-free scores %d and %d, want both 745 (0.75 × 0.9933 × 1000)", a, b)
	}
	if s := slowStartScore(-1000, 10000); s != -100 {
		t.Errorf("score of −1000 at 10000 = %d, want −100", s)
	}
	if s := slowStartScore(noUtility, 10000); s != noUtility {
		t.Errorf("score of no utility %d", s)
	}
}
