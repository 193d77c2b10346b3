package orbit

import (
	"errors"
	"math"
	"testing"
	"time"
)

// Deep-space element sets of the verification set (SGP4-VER.TLE), one per
// SDP4 branch.
var deepSets = []struct {
	name         string
	line1, line2 string
	kind         resonanceKind
}{
	// 9880 Molniya 2-14: 2 rev/day, e = 0.71, the 12 h resonance.
	{"half-day", "1 09880U 77021A   06176.56157475  .00000421  00000-0  10000-3 0  9814",
		"2 09880  64.5968 349.3786 7069051 270.0229  16.3320  2.00813614112380", halfDay},
	// 28626 (geostationary): 1 rev/day, the 24 h resonance and Lyddane's
	// periodics (i = 0.0019°).
	{"synchronous", "1 28626U 05008A   06176.46683397 -.00000205  00000-0  10000-3 0  2190",
		"2 28626   0.0019 286.9433 0000335  13.7918  55.6504  1.00270176  4891", synchronous},
	// 23333 (e = 0.97, 20-day period): lunar-solar terms only.
	{"lunar-solar", "1 23333U 94071A   94305.49999999 -.00172956  26967-3  10000-3 0    15",
		"2 23333  28.7490   2.3720 9728298  30.4360   1.3500  0.07309491    70", noResonance},
}

func newDeepSGP4(t testing.TB, line1, line2 string) *SGP4 {
	t.Helper()
	tle, err := ParseTLE(line1, line2)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSGP4(tle)
	if err != nil {
		t.Fatal(err)
	}
	if s.ds == nil {
		t.Fatalf("sat %d: not propagated as deep space", tle.SatNum)
	}
	return s
}

func TestOrbitSDP4ResonanceKind(t *testing.T) {
	for _, c := range deepSets {
		s := newDeepSGP4(t, c.line1, c.line2)
		if s.ds.res.kind != c.kind {
			t.Errorf("%s: resonance %d, want %d", c.name, s.ds.res.kind, c.kind)
		}
	}
	// The ISS (92 min) stays near-Earth.
	tle, _ := ParseTLE(issLine1, issLine2)
	if s, err := NewSGP4(tle); err != nil || s.ds != nil {
		t.Errorf("ISS: err %v, deep space %v", err, s != nil && s.ds != nil)
	}
}

// TestOrbitSDP4GeostationaryDrift checks the physics the verification set
// cannot isolate: over a day a geostationary satellite's sub-satellite
// longitude stays put (within its daily libration) and its radius stays
// near 42,164 km, while the 24 h resonance is integrated over ten 720-min
// steps.
func TestOrbitSDP4GeostationaryDrift(t *testing.T) {
	s := newDeepSGP4(t, deepSets[1].line1, deepSets[1].line2)
	var lon0 float64
	for i := 0; i <= 10; i++ {
		at := s.Epoch().Add(time.Duration(i) * 8 * time.Hour)
		r, _, err := s.At(at)
		if err != nil {
			t.Fatal(err)
		}
		e := InertialToECEF(r, GMST(at))
		lon := math.Atan2(e[1], e[0]) * rad2deg
		if i == 0 {
			lon0 = lon
		}
		// GEO radius from Kepler's third law with n = 1.0027 rev/day.
		if d := r.Norm() - 42164; math.Abs(d) > 50 {
			t.Errorf("t=%dh: radius %.1f km, want 42164 ± 50", 8*i, r.Norm())
		}
		if d := math.Abs(lon - lon0); d > 0.5 {
			t.Errorf("t=%dh: longitude %.3f°, drifted %.3f° from %.3f°", 8*i, lon, d, lon0)
		}
	}
}

func TestOrbitSGP4TimeSpan(t *testing.T) {
	s := newDeepSGP4(t, deepSets[1].line1, deepSets[1].line2)
	for _, ts := range []float64{math.NaN(), math.Inf(1), -1e12, maxTsince * 1.01} {
		if _, _, err := s.Propagate(ts); !errors.Is(err, ErrTimeSpan) {
			t.Errorf("t=%v: err %v, want ErrTimeSpan", ts, err)
		}
	}
	if _, _, err := s.Propagate(-maxTsince / 2); errors.Is(err, ErrTimeSpan) {
		t.Errorf("t=-50 years refused: %v", err)
	}
}

func TestOrbitSDP4PropagateAllocs(t *testing.T) {
	for _, c := range deepSets {
		s := newDeepSGP4(t, c.line1, c.line2)
		if n := testing.AllocsPerRun(100, func() { _, _, _ = s.Propagate(1000) }); n != 0 {
			t.Errorf("%s: Propagate allocates %v times, want 0", c.name, n)
		}
	}
}

// BenchmarkOrbitSDP4Propagate times one deep-space step within a day of
// epoch (at most two resonance integrator steps).
func BenchmarkOrbitSDP4Propagate(b *testing.B) {
	for _, c := range deepSets {
		b.Run(c.name, func(b *testing.B) {
			benchPropagate(b, newDeepSGP4(b, c.line1, c.line2))
		})
	}
}
