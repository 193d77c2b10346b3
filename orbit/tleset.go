package orbit

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// TLESet is a Source of satellites propagated from element sets with
// SGP4 (SDP4 for periods of 225 min and more).
type TLESet struct {
	props []*SGP4
}

// NewTLESet prepares a propagator per element set; a set that fails at
// its epoch (decayed, eccentricity out of range) is an error naming it.
func NewTLESet(tles []TLE) (*TLESet, error) {
	s := &TLESet{}
	for i, t := range tles {
		p, err := NewSGP4(t)
		if err != nil {
			return nil, fmt.Errorf("element set %d (%s): %w", i+1, tleLabel(t), err)
		}
		s.props = append(s.props, p)
	}
	if len(s.props) == 0 {
		return nil, fmt.Errorf("no element sets")
	}
	return s, nil
}

func tleLabel(t TLE) string {
	if t.Name != "" {
		return t.Name
	}
	return strconv.Itoa(t.SatNum)
}

// Len returns the number of satellites.
func (s *TLESet) Len() int { return len(s.props) }

// Name returns the satellite's title-line name, or its catalogue number.
func (s *TLESet) Name(i int) string { return tleLabel(s.props[i].tle) }

// Position returns satellite i's ECEF position at t (NaNs if SGP4 fails).
func (s *TLESet) Position(i int, t time.Time) Vec3 {
	r, _, err := s.props[i].At(t)
	if err != nil {
		return Vec3{math.NaN(), math.NaN(), math.NaN()}
	}
	return InertialToECEF(r, GMST(t))
}

// Positions fills dst with every satellite's ECEF position at t.
func (s *TLESet) Positions(t time.Time, dst []Vec3) []Vec3 {
	if cap(dst) < len(s.props) {
		dst = make([]Vec3, len(s.props))
	}
	dst = dst[:len(s.props)]
	g := GMST(t)
	for i, p := range s.props {
		r, _, err := p.At(t)
		if err != nil {
			dst[i] = Vec3{math.NaN(), math.NaN(), math.NaN()}
			continue
		}
		dst[i] = InertialToECEF(r, g)
	}
	return dst
}
