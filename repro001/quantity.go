package repro001

import (
	"fmt"
	"math"
)

// Quantity is one number of a finding: what the paper reports, the value
// of the simulated profile, and what the prober inferred from the packets.
type Quantity struct {
	Finding   string // "2", "5", "17–18": seed 001's numbering
	Direction string // "downlink", "uplink" or "" (both, or none)
	Name      string
	Unit      string
	Paper     string  // the paper's value as it gives it, e.g. "~1500"
	Profile   float64 // the yardstick: the profile's value (or what it implies)
	Inferred  float64
	// Rel and Abs are the tolerance: |Inferred − Profile| within Rel of
	// Profile or within Abs (in Unit), whichever is wider; Why says where
	// the tolerance comes from.
	Rel, Abs float64
	Why      string
}

// OK reports whether the inference is within the tolerance.
func (q Quantity) OK() bool {
	if math.IsNaN(q.Inferred) {
		return false
	}
	d := math.Abs(q.Inferred - q.Profile)
	return d <= q.Rel*math.Abs(q.Profile)+1e-12 || d <= q.Abs+1e-12
}

// Tolerance is the tolerance as text.
func (q Quantity) Tolerance() string {
	switch {
	case q.Rel > 0 && q.Abs > 0:
		return fmt.Sprintf("±%g %% or ±%g %s", 100*q.Rel, q.Abs, q.Unit)
	case q.Rel > 0:
		return fmt.Sprintf("±%g %%", 100*q.Rel)
	case q.Abs == 0:
		return "exact"
	}
	return fmt.Sprintf("±%g %s", q.Abs, q.Unit)
}

// within10 is the acceptance's default tolerance: 10 %.
const within10 = 0.10

// verdict is a yes/no quantity (1 = yes) compared exactly.
func verdict(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
