package orbit

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Shell is a Walker-delta shell i:T/P/F of circular orbits: Planes planes
// of PerPlane satellites, planes spread evenly over 360° of right
// ascension, satellites evenly in each plane, and plane p's satellites
// shifted by p·F·360°/T in argument of latitude.
type Shell struct {
	Name        string  `json:"name"`
	AltitudeKm  float64 `json:"altitude_km"`
	Inclination float64 `json:"inclination_deg"`
	Planes      int     `json:"planes"`
	PerPlane    int     `json:"per_plane"`
	Phasing     int     `json:"phasing"` // Walker F, 0 ≤ F < Planes
}

// Starlink's first-generation shells as authorised by the FCC (Order and
// Authorization FCC 21-48, 27 April 2021, on SpaceX's modification
// IBFS SAT-MOD-20200417-00037: 4,408 satellites in five shells — seed 000
// §2's "five distinct orbital shells"). LeoEM (seed 002) uses shell 1. The
// filing gives no Walker phasing factor; we use F = 1, which puts
// neighbouring planes' satellites 360°/1584 ≈ 0.23° apart.
var starlinkShells = []Shell{
	{"starlink-1", 550, 53.0, 72, 22, 1},
	{"starlink-2", 540, 53.2, 72, 22, 1},
	{"starlink-3", 570, 70.0, 36, 20, 1},
	{"starlink-4", 560, 97.6, 6, 58, 1},
	{"starlink-5", 560, 97.6, 4, 43, 1},
}

// StarlinkShells returns a copy of the built-in Starlink shells.
func StarlinkShells() []Shell { return append([]Shell(nil), starlinkShells...) }

// ShellByName returns a built-in shell.
func ShellByName(name string) (Shell, error) {
	var names []string
	for _, s := range starlinkShells {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return Shell{}, fmt.Errorf("unknown shell %q (allowed: %s)", name, strings.Join(names, ", "))
}

// Validate checks the shell's parameters.
func (s Shell) Validate() error {
	switch {
	case s.AltitudeKm < 160 || s.AltitudeKm > 36000:
		return fmt.Errorf("shell %s: altitude_km %v outside 160..36000", s.Name, s.AltitudeKm)
	case s.Inclination < 0 || s.Inclination > 180:
		return fmt.Errorf("shell %s: inclination_deg %v outside 0..180", s.Name, s.Inclination)
	case s.Planes < 1 || s.PerPlane < 1:
		return fmt.Errorf("shell %s: planes %d and per_plane %d must be ≥ 1", s.Name, s.Planes, s.PerPlane)
	case s.Phasing < 0 || s.Phasing >= s.Planes:
		return fmt.Errorf("shell %s: phasing %d outside 0..%d", s.Name, s.Phasing, s.Planes-1)
	}
	return nil
}

// Size returns the number of satellites, T.
func (s Shell) Size() int { return s.Planes * s.PerPlane }

// semiMajor returns the orbit radius in km over WGS-84's equator.
func (s Shell) semiMajor() float64 { return wgs84A + s.AltitudeKm }

// rates returns the secular J2 drift of a circular orbit of the shell:
// the node (RAAN) rate and the argument-of-latitude rate, rad/s
// (Vallado, Fundamentals of Astrodynamics and Applications, 4th ed.,
// eqs. 9-41 for Ω̇, ω̇ and Ṁ with e = 0, p = a; u̇ = ω̇ + Ṁ).
func (s Shell) rates() (nodeDot, uDot float64) {
	a := s.semiMajor()
	n := math.Sqrt(wgs84Mu / (a * a * a))
	k := 1.5 * wgs84J2 * (wgs84A / a) * (wgs84A / a) * n
	ci := math.Cos(s.Inclination * deg2rad)
	nodeDot = -k * ci
	argpDot := 0.5 * k * (5*ci*ci - 1)
	mDot := n + 0.5*k*(3*ci*ci-1)
	return nodeDot, argpDot + mDot
}

// Period returns the nodal period (ascending node to ascending node)
// including the J2 drift of the argument of latitude.
func (s Shell) Period() time.Duration {
	_, uDot := s.rates()
	return time.Duration(twoPi / uDot * 1e9)
}

// Walker is a constellation of Walker-delta shells, all placed at Epoch:
// plane 0's node at right ascension 0 and its satellite 0 at the node.
// It propagates each satellite as a circular Keplerian orbit plus J2's
// secular node regression and argument-of-latitude drift.
type Walker struct {
	Epoch  time.Time
	shells []Shell
	sats   []walkerSat
	nbr    [][4]int
}

type walkerSat struct {
	shell, plane, index int
	a, sinI, cosI       float64
	node0, u0           float64 // at epoch, rad
	nodeDot, uDot       float64 // rad/s
}

// NewWalker builds the constellation of the given shells.
func NewWalker(epoch time.Time, shells ...Shell) (*Walker, error) {
	if len(shells) == 0 {
		return nil, fmt.Errorf("walker: no shells")
	}
	w := &Walker{Epoch: epoch, shells: append([]Shell(nil), shells...)}
	for si, s := range shells {
		if err := s.Validate(); err != nil {
			return nil, err
		}
		nodeDot, uDot := s.rates()
		sinI, cosI := math.Sincos(s.Inclination * deg2rad)
		t := float64(s.Size())
		for p := 0; p < s.Planes; p++ {
			for k := 0; k < s.PerPlane; k++ {
				w.sats = append(w.sats, walkerSat{
					shell: si, plane: p, index: k,
					a: s.semiMajor(), sinI: sinI, cosI: cosI,
					node0:   twoPi * float64(p) / float64(s.Planes),
					u0:      twoPi*float64(k)/float64(s.PerPlane) + twoPi*float64(s.Phasing*p)/t,
					nodeDot: nodeDot, uDot: uDot,
				})
			}
		}
	}
	w.nbr = w.plusGrid()
	return w, nil
}

// Len returns the number of satellites.
func (w *Walker) Len() int { return len(w.sats) }

// Shells returns the shells.
func (w *Walker) Shells() []Shell { return append([]Shell(nil), w.shells...) }

// Name returns satellite i's name: shell, plane and slot, e.g.
// "starlink-1/P07/S12".
func (w *Walker) Name(i int) string {
	s := w.sats[i]
	return fmt.Sprintf("%s/P%02d/S%02d", w.shells[s.shell].Name, s.plane, s.index)
}

// Inertial returns satellite i's position in the inertial frame, km.
func (w *Walker) Inertial(i int, t time.Time) Vec3 {
	s := &w.sats[i]
	dt := t.Sub(w.Epoch).Seconds()
	node := s.node0 + s.nodeDot*dt
	u := s.u0 + s.uDot*dt
	sn, cn := math.Sincos(node)
	su, cu := math.Sincos(u)
	return Vec3{
		s.a * (cn*cu - sn*su*s.cosI),
		s.a * (sn*cu + cn*su*s.cosI),
		s.a * su * s.sinI,
	}
}

// Position returns satellite i's Earth-fixed position at t, km.
func (w *Walker) Position(i int, t time.Time) Vec3 {
	return InertialToECEF(w.Inertial(i, t), GMST(t))
}

// Positions writes every satellite's Earth-fixed position at t into dst
// (grown if short) and returns it.
func (w *Walker) Positions(t time.Time, dst []Vec3) []Vec3 {
	if cap(dst) < len(w.sats) {
		dst = make([]Vec3, len(w.sats))
	}
	dst = dst[:len(w.sats)]
	g := GMST(t)
	for i := range w.sats {
		dst[i] = InertialToECEF(w.Inertial(i, t), g)
	}
	return dst
}

var _ Grid = (*Walker)(nil)
