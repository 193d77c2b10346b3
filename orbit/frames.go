package orbit

import (
	"math"
	"time"
)

// julianDate returns the Julian date of t (UTC, used for UT1: the
// difference, under 0.9 s, moves a LEO ground track by under 0.4 km).
func julianDate(t time.Time) float64 {
	return float64(t.Unix())/86400 + float64(t.Nanosecond())/86400e9 + 2440587.5
}

// GMST returns the Greenwich mean sidereal time of t in radians, by the
// IAU-82 expression of Vallado, Fundamentals of Astrodynamics and
// Applications, eq. 3-47 (the reference SGP4 code's gstime), which
// defines the TEME-to-Earth-fixed rotation SGP4 output needs.
func GMST(t time.Time) float64 {
	tut1 := (julianDate(t) - 2451545.0) / 36525.0
	sec := -6.2e-6*tut1*tut1*tut1 + 0.093104*tut1*tut1 +
		(876600.0*3600+8640184.812866)*tut1 + 67310.54841
	g := math.Mod(sec*deg2rad/240.0, twoPi) // 240 s of time per degree
	if g < 0 {
		g += twoPi
	}
	return g
}

// InertialToECEF rotates a TEME (or mean-equator inertial) position into
// the Earth-fixed frame by the sidereal angle gmst (polar motion, under
// 15 m, is neglected).
func InertialToECEF(r Vec3, gmst float64) Vec3 {
	s, c := math.Sincos(gmst)
	return Vec3{c*r[0] + s*r[1], -s*r[0] + c*r[1], r[2]}
}

// Site is a place on the ground: WGS-84 geodetic latitude and longitude in
// degrees (north and east positive) and height above the ellipsoid in km.
type Site struct {
	Name   string  `json:"name"`
	Lat    float64 `json:"lat"`
	Lon    float64 `json:"lon"`
	Alt    float64 `json:"alt_km,omitempty"`
	Source string  `json:"source,omitempty"`
}

// ECEF returns the site's Earth-fixed position (NIMA TR8350.2 eq. 4-14).
func (s Site) ECEF() Vec3 {
	lat, lon := s.Lat*deg2rad, s.Lon*deg2rad
	e2 := wgs84F * (2 - wgs84F)
	sl, cl := math.Sincos(lat)
	n := wgs84A / math.Sqrt(1-e2*sl*sl)
	so, co := math.Sincos(lon)
	return Vec3{(n + s.Alt) * cl * co, (n + s.Alt) * cl * so, (n*(1-e2) + s.Alt) * sl}
}

// Station is a site prepared for look-angle computations: its ECEF
// position and local east/north/up unit vectors.
type Station struct {
	Site
	pos, east, north, up Vec3
}

// NewStation prepares s.
func NewStation(s Site) Station {
	lat, lon := s.Lat*deg2rad, s.Lon*deg2rad
	sl, cl := math.Sincos(lat)
	so, co := math.Sincos(lon)
	return Station{
		Site:  s,
		pos:   s.ECEF(),
		east:  Vec3{-so, co, 0},
		north: Vec3{-sl * co, -sl * so, cl},
		up:    Vec3{cl * co, cl * so, sl},
	}
}

// Pos returns the station's ECEF position, km.
func (st *Station) Pos() Vec3 { return st.pos }

// Look returns the elevation and azimuth (degrees; azimuth clockwise from
// north) and the range (km) of an ECEF position seen from the station.
func (st *Station) Look(p Vec3) (el, az, rng float64) {
	d := p.Sub(st.pos)
	rng = d.Norm()
	e, n, u := d.Dot(st.east), d.Dot(st.north), d.Dot(st.up)
	el = math.Asin(u/rng) * rad2deg
	az = math.Atan2(e, n) * rad2deg
	if az < 0 {
		az += 360
	}
	return el, az, rng
}

// Elevation returns only the elevation of p in degrees (cheaper: no
// azimuth).
func (st *Station) Elevation(p Vec3) float64 {
	d := p.Sub(st.pos)
	return math.Asin(d.Dot(st.up)/d.Norm()) * rad2deg
}

// GreatCircle returns the distance in km between two sites along the
// surface of a sphere of WGS-84's mean radius R1 = (2a+b)/3 = 6371.0088 km
// (haversine formula).
func GreatCircle(a, b Site) float64 {
	const r1 = 6371.0088
	la1, la2 := a.Lat*deg2rad, b.Lat*deg2rad
	dla, dlo := la2-la1, (b.Lon-a.Lon)*deg2rad
	h := math.Sin(dla/2)*math.Sin(dla/2) + math.Cos(la1)*math.Cos(la2)*math.Sin(dlo/2)*math.Sin(dlo/2)
	return 2 * r1 * math.Asin(math.Min(1, math.Sqrt(h)))
}
