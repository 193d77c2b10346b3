package orbit

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Policy chooses the serving satellite among those visible in a slot.
type Policy int

// Serving-satellite policies.
const (
	// Highest takes the satellite at the highest elevation.
	Highest Policy = iota
	// Dwell takes the satellite that stays above the minimum elevation
	// longest from the slot's start.
	Dwell
	// Sticky keeps the previous slot's satellite while it stays usable,
	// and otherwise takes the highest.
	Sticky
)

var policyNames = []string{"highest", "dwell", "sticky"}

func (p Policy) String() string {
	if p >= 0 && int(p) < len(policyNames) {
		return policyNames[p]
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// ParsePolicy parses a policy name.
func ParsePolicy(s string) (Policy, error) {
	for i, n := range policyNames {
		if s == n {
			return Policy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown policy %q (allowed: %s)", s, strings.Join(policyNames, ", "))
}

// Defaults of visibility and the serving choice.
const (
	// DefaultMinElevation: user terminals connect to satellites above 25°
	// (seed 000 §2; SpaceX's FCC filings).
	DefaultMinElevation = 25.0
	// DefaultSlot: Starlink reassigns satellites every 15 s (seed 000 §2,
	// seed 001; LeoEM's "_15_" paths).
	DefaultSlot = 15 * time.Second
	// dwellStep and dwellHorizon bound the look-ahead of the dwell policy:
	// a shell-1 pass above 25° lasts at most ~4 min.
	dwellStep    = 5 * time.Second
	dwellHorizon = 15 * time.Minute
)

// Visible appends to buf the satellites whose positions pos are above
// minEl degrees from st, and returns it.
func Visible(st *Station, pos []Vec3, minEl float64, buf []int) []int {
	// Cheap cull: a satellite above minEl is within the cone's chord; the
	// dot product with "up" must be positive first.
	for i, p := range pos {
		d := p.Sub(st.pos)
		u := d.Dot(st.up)
		if u <= 0 || math.IsNaN(u) {
			continue
		}
		if math.Asin(u/d.Norm())*rad2deg >= minEl {
			buf = append(buf, i)
		}
	}
	return buf
}

// dwell returns how long satellite i stays above minEl from st after t,
// up to dwellHorizon.
func dwell(src Source, i int, st *Station, t time.Time, minEl float64) time.Duration {
	var d time.Duration
	for d = dwellStep; d <= dwellHorizon; d += dwellStep {
		if st.Elevation(src.Position(i, t.Add(d))) < minEl {
			return d - dwellStep
		}
	}
	return dwellHorizon
}

// choose picks the serving satellite among cands (visible from st at t)
// by policy; prev is the last slot's satellite (−1 for none). It returns
// −1 if cands is empty.
func choose(p Policy, src Source, pos []Vec3, cands []int, st *Station, t time.Time, minEl float64, prev int) int {
	if len(cands) == 0 {
		return -1
	}
	if p == Sticky {
		for _, c := range cands {
			if c == prev {
				return prev
			}
		}
	}
	best, bestEl := -1, -90.0
	var bestDwell time.Duration = -1
	for _, c := range cands {
		el := st.Elevation(pos[c])
		if p == Dwell {
			d := dwell(src, c, st, t, minEl)
			if d > bestDwell || d == bestDwell && el > bestEl {
				best, bestEl, bestDwell = c, el, d
			}
			continue
		}
		if el > bestEl {
			best, bestEl = c, el
		}
	}
	return best
}
