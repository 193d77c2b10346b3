package orbit

import (
	"math"
	"testing"
)

// The two ways dpper applies the periodics (directly above 0.2 rad of
// inclination, through Lyddane's direction cosines below) are the same
// first-order perturbation: at the switch they agree to second order in
// the periodics' size over sin i (the node's perturbation is ph/sin i).
func TestOrbitSDP4LyddaneContinuity(t *testing.T) {
	s := newDeepSGP4(t, deepSets[2].line1, deepSets[2].line2) // 23333: large lunar-solar terms
	d := s.ds
	const eps = 1e-9
	for _, tm := range []float64{100, 5000, 20000} {
		_, sis, sls, sghs, shs := d.sun.at(tm)
		_, sil, sll, sghl, shl := d.moon.at(tm)
		size := math.Max(math.Abs(sis+sil), math.Max(math.Abs(shs+shl), math.Max(math.Abs(sls+sll), math.Abs(sghs+sghl))))
		// Mean inclination just below and just above the switch, less the
		// periodic change, so that the perturbed inclination straddles it.
		i0 := lyddaneIncl - (sis + sil)
		_, iLo, nLo, aLo, mLo := applyPeriodics(&d.sun, &d.moon, tm, 0.5, i0-eps, 1.0, 2.0, 3.0)
		_, iHi, nHi, aHi, mHi := applyPeriodics(&d.sun, &d.moon, tm, 0.5, i0+eps, 1.0, 2.0, 3.0)
		if !(iLo < lyddaneIncl && iHi >= lyddaneIncl) {
			t.Fatalf("t=%v: inclinations %v, %v do not straddle %v", tm, iLo, iHi, lyddaneIncl)
		}
		// The longitude of perigee and the mean longitude are what both
		// forms conserve; compare them and the node.
		q := size / math.Sin(lyddaneIncl)
		tol := 2 * q * q
		for _, c := range []struct {
			what   string
			lo, hi float64
		}{{"node", nLo, nHi}, {"node+argp", nLo + aLo, nHi + aHi}, {"mean longitude", nLo + aLo + mLo, nHi + aHi + mHi}} {
			if d := math.Abs(c.lo - c.hi); d > tol {
				t.Errorf("t=%v: %s differs by %.3g rad across the switch (periodics %.3g rad, allowed %.3g)", tm, c.what, d, size, tol)
			}
		}
		t.Logf("t=%v: periodics up to %.3g rad; node jumps %.3g rad at the switch", tm, size, math.Abs(nLo-nHi))
	}
}

// With no perturbing body the periodics change nothing.
func TestOrbitSDP4PeriodicsZero(t *testing.T) {
	var sun, moon lsPeriodic
	for _, incl := range []float64{0.05, 1.0} {
		e, i, n, a, m := applyPeriodics(&sun, &moon, 1000, 0.1, incl, 1, 2, 3)
		if e != 0.1 || i != incl || math.Abs(n-1) > 1e-15 || math.Abs(a-2) > 1e-14 || math.Abs(m-3) > 1e-15 {
			t.Errorf("incl %v: %v %v %v %v %v", incl, e, i, n, a, m)
		}
	}
}
