package orbit

import (
	"math"
	"testing"
	"time"
)

func TestOrbitGMST(t *testing.T) {
	// Vallado, Fundamentals of Astrodynamics and Applications, example
	// 3-5: 20 August 1992, 12:14 UT1 → GMST 152.578787886°.
	g := GMST(time.Date(1992, 8, 20, 12, 14, 0, 0, time.UTC)) * rad2deg
	if math.Abs(g-152.578787886) > 1e-6 {
		t.Errorf("GMST %.9f°, want 152.578787886°", g)
	}
}

func TestOrbitSiteECEFAndLook(t *testing.T) {
	// The equator at the prime meridian is (a, 0, 0); the pole is (0, 0, b).
	if p := (Site{Lat: 0, Lon: 0}).ECEF(); math.Abs(p[0]-wgs84A) > 1e-9 || math.Abs(p[1]) > 1e-9 {
		t.Errorf("equator %v", p)
	}
	b := wgs84A * (1 - wgs84F)
	if p := (Site{Lat: 90}).ECEF(); math.Abs(p[2]-b) > 1e-9 {
		t.Errorf("pole %v, want z = %v", p, b)
	}
	st := NewStation(burwood)
	up := st.Pos().Add(st.up.Scale(550))
	if el, _, rng := st.Look(up); math.Abs(el-90) > 1e-9 || math.Abs(rng-550) > 1e-9 {
		t.Errorf("overhead: el %v range %v", el, rng)
	}
	north := st.Pos().Add(st.north.Scale(100)).Add(st.up.Scale(100))
	if el, az, _ := st.Look(north); math.Abs(el-45) > 1e-9 || math.Abs(az) > 1e-9 {
		t.Errorf("north at 45°: el %v az %v", el, az)
	}
	east := st.Pos().Add(st.east.Scale(100))
	if el, az, _ := st.Look(east); math.Abs(el) > 1e-9 || math.Abs(az-90) > 1e-9 {
		t.Errorf("east on the horizon: el %v az %v", el, az)
	}
}

func TestOrbitGreatCircle(t *testing.T) {
	// A quarter of a meridian on the mean sphere: π/2 · 6371.0088 km.
	if d := GreatCircle(Site{Lat: 0, Lon: 0}, Site{Lat: 90, Lon: 0}); math.Abs(d-math.Pi/2*6371.0088) > 1e-6 {
		t.Errorf("quarter meridian %v km", d)
	}
}

func TestOrbitParseLatLon(t *testing.T) {
	s, err := ParseLatLon("-37.85, 145.11")
	if err != nil || s.Lat != -37.85 || s.Lon != 145.11 {
		t.Errorf("%+v %v", s, err)
	}
	for _, bad := range []string{"", "1", "91,0", "0,181", "1,2,3", "x,1", "1,2x"} {
		if _, err := ParseLatLon(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
