package orbit

import (
	"math"
	"testing"
	"time"
)

func TestOrbitWalkerShell1(t *testing.T) {
	w := shell1(t)
	if w.Len() != 1584 {
		t.Errorf("%d satellites, want 72 × 22 = 1584", w.Len())
	}
	// Kepler: T = 2π √(a³/μ) for a = 6378.137 + 550 km is 95.65 min;
	// J2 (53°) shortens the nodal period by ~0.05%.
	a := wgs84A + 550
	kepler := twoPi * math.Sqrt(a*a*a/wgs84Mu) / 60
	p := w.Shells()[0].Period().Minutes()
	if math.Abs(kepler-95.65) > 0.01 || math.Abs(p-kepler)/kepler > 1e-3 {
		t.Errorf("period %.3f min, Kepler %.3f min", p, kepler)
	}
	// Every satellite stays at 550 km over the equator's radius and the
	// shell's latitude never exceeds its inclination.
	t1 := testEpoch.Add(37 * time.Minute)
	for i, r := range w.Positions(t1, nil) {
		if math.Abs(r.Norm()-a) > 1e-6 {
			t.Fatalf("sat %d radius %v", i, r.Norm())
		}
		if lat := math.Asin(r[2]/r.Norm()) * rad2deg; lat > 53+1e-9 {
			t.Fatalf("sat %d latitude %v", i, lat)
		}
	}
	// J2 regresses the node of a 53° orbit at 550 km by ~4.5°/day.
	nodeDot, _ := w.Shells()[0].rates()
	if d := nodeDot * 86400 * rad2deg; math.Abs(d+4.5) > 0.2 {
		t.Errorf("node drift %.3f°/day, want ≈ −4.5", d)
	}
}

// TestOrbitWalkerVisibilityMelbourne: the mean number of shell-1
// satellites above 25° from Melbourne over a day against the analytic
// value: N × cap fraction × the latitude density of inclined circular
// orbits, 2/(π √(sin²i − sin²φ)) relative to uniform.
func TestOrbitWalkerVisibilityMelbourne(t *testing.T) {
	w := shell1(t)
	st := NewStation(burwood)
	var pos []Vec3
	var buf []int
	n, sum := 0, 0
	for d := time.Duration(0); d < 24*time.Hour; d += 2 * time.Minute {
		pos = w.Positions(testEpoch.Add(d), pos)
		buf = Visible(&st, pos, DefaultMinElevation, buf[:0])
		sum += len(buf)
		n++
	}
	mean := float64(sum) / float64(n)
	r, h, el := wgs84A, 550.0, DefaultMinElevation*deg2rad
	lambda := math.Acos(r*math.Cos(el)/(r+h)) - el // Earth central angle of the cap
	sinI, sinPhi := math.Sin(53*deg2rad), math.Sin(burwood.Lat*deg2rad)
	density := 2 / (math.Pi * math.Sqrt(sinI*sinI-sinPhi*sinPhi))
	want := 1584 * (1 - math.Cos(lambda)) / 2 * density
	t.Logf("mean visible above 25° from Melbourne: %.2f, analytic %.2f", mean, want)
	if math.Abs(mean-want)/want > 0.1 {
		t.Errorf("mean visible %.2f, analytic %.2f", mean, want)
	}
}

func TestOrbitWalkerPlusGrid(t *testing.T) {
	w := shell1(t)
	for i := 0; i < w.Len(); i++ {
		for _, j := range w.Neighbours(i) {
			if j < 0 {
				t.Fatalf("sat %d: missing neighbour", i)
			}
			back := false
			for _, k := range w.Neighbours(j) {
				back = back || k == i
			}
			if !back {
				t.Errorf("link %d→%d not symmetric", i, j)
			}
		}
	}
	// Neighbours are close: in-plane 360°/22 apart (~1,980 km), across
	// planes under ~1,000 km at most latitudes.
	pos := w.Positions(testEpoch, nil)
	for i := 0; i < w.Len(); i++ {
		for _, j := range w.Neighbours(i) {
			if d := pos[i].Dist(pos[j]); d > 2000 {
				t.Errorf("link %d–%d is %.0f km", i, j, d)
			}
		}
	}
	if _, err := ShellByName("starlink-9"); err == nil {
		t.Error("unknown shell accepted")
	}
	if _, err := NewWalker(testEpoch, Shell{Name: "x", AltitudeKm: 550, Inclination: 53, Planes: 0, PerPlane: 1}); err == nil {
		t.Error("zero planes accepted")
	}
}

func TestOrbitRouterLine(t *testing.T) {
	// In one plane the shortest route between satellites 0 and 3 of a
	// 22-satellite ring is three in-plane hops.
	w := shell1(t)
	pos := w.Positions(testEpoch, nil)
	var r router
	r.shortest(w, pos, 0)
	got := r.route(3, nil)
	if len(got) != 4 || got[0] != 0 || got[3] != 3 {
		t.Errorf("route %v", got)
	}
	if want := 3 * pos[0].Dist(pos[1]); math.Abs(r.dist[3]-want) > 1e-6 {
		t.Errorf("distance %v, want %v", r.dist[3], want)
	}
}

func TestEpochIsFirstOfApril2026(t *testing.T) {
	if want := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC); !Epoch().Equal(want) || Epoch().Location() != time.UTC {
		t.Errorf("Epoch() = %v, want %v", Epoch(), want)
	}
}
