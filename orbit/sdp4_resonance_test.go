package orbit

import (
	"math"
	"testing"
)

func TestOrbitSDP4ResonanceKindOf(t *testing.T) {
	const revPerDay = twoPi / minutesPerDay // rad/min per rev/day
	for _, c := range []struct {
		rev, e float64
		want   resonanceKind
	}{
		{1.0027, 0.0001, synchronous}, // geostationary
		{0.81, 0.1, synchronous},      // 1778 min period, inside 1200–1800
		{0.79, 0.1, noResonance},      // 1823 min
		{2.006, 0.72, halfDay},        // Molniya
		{2.006, 0.3, noResonance},     // 12 h but nearly circular (GPS-like)
		{2.2, 0.72, noResonance},      // 655 min: outside 680–761
		{0.5, 0.5, noResonance},
	} {
		if got := resonanceKindOf(c.rev*revPerDay, c.e); got != c.want {
			t.Errorf("%v rev/day, e %v: kind %d, want %d", c.rev, c.e, got, c.want)
		}
	}
}

// Without tesseral coefficients the integrator must reproduce the linear
// drift of the resonant longitude exactly: mean motion stays no, and the
// mean anomaly is xlamo + (no + xfact)·t less the node/perigee terms plus
// the sidereal angle.
func TestOrbitSDP4ResonanceLinear(t *testing.T) {
	for _, kind := range []resonanceKind{synchronous, halfDay} {
		res := resonance{kind: kind, xfact: 1e-4, xlamo: 0.3, gsto: 1.1, no: 0.0044, argpo: 0.2, argpdot: 1e-6}
		for _, tm := range []float64{0, 300, 720, 1000, 7200.5, -1500, -720} {
			nodem, argpm := 0.7, 0.9
			mm, nm := res.at(tm, nodem, argpm)
			theta := math.Mod(res.gsto+tm*rptim, twoPi)
			xl := res.xlamo + (res.no+res.xfact)*tm
			want := xl - nodem - argpm + theta
			if kind == halfDay {
				want = xl - 2*nodem + 2*theta
			}
			if math.Abs(mm-want) > 1e-12 || nm != res.no {
				t.Errorf("kind %d t=%v: mm %.15g nm %v, want %.15g %v", kind, tm, mm, nm, want, res.no)
			}
		}
	}
}
