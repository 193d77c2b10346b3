package calibrate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/leolab/leolab/profile"
)

// Param is one fitted parameter: a numeric Starlink profile parameter and
// the bounds (internal unit: ns, bits/s, or the plain number) it may move
// within. Log parameters are searched on a log scale (rates, probabilities,
// anything whose plausible values span decades).
type Param struct {
	profile.Numeric
	Lo, Hi float64
	Log    bool
}

// ParseParam reads "path", "path=lo:hi" or "path=lo:hi:log" (values in the
// parameter's units, e.g. "uplink.alloc.base=5Mbps:60Mbps"); without bounds
// the parameter's allowed range is used.
func ParseParam(s string) (Param, error) {
	path, bounds, hasBounds := strings.Cut(strings.TrimSpace(s), "=")
	n, err := profile.StarlinkNumeric(path)
	if err != nil {
		return Param{}, err
	}
	p := Param{Numeric: n, Lo: n.Lo, Hi: n.Hi}
	if hasBounds {
		parts := strings.Split(bounds, ":")
		if len(parts) < 2 || len(parts) > 3 || (len(parts) == 3 && parts[2] != "log" && parts[2] != "lin") {
			return Param{}, fmt.Errorf("parameter %s: bounds %q: want lo:hi or lo:hi:log", path, bounds)
		}
		if p.Lo, err = parseValue(n, parts[0]); err == nil {
			p.Hi, err = parseValue(n, parts[1])
		}
		if err != nil {
			return Param{}, fmt.Errorf("parameter %s: %w", path, err)
		}
		p.Log = len(parts) == 3 && parts[2] == "log"
	}
	if !(p.Lo < p.Hi) || p.Lo < n.Lo || p.Hi > n.Hi {
		return Param{}, fmt.Errorf("parameter %s: bounds %s..%s: want lo < hi within the allowed %s..%s",
			path, n.Format(p.Lo), n.Format(p.Hi), n.Format(n.Lo), n.Format(n.Hi))
	}
	if p.Log && p.Lo <= 0 {
		return Param{}, fmt.Errorf("parameter %s: a log scale needs lo > 0", path)
	}
	return p, nil
}

func parseValue(n profile.Numeric, s string) (float64, error) {
	switch n.Unit {
	case "rate":
		return profile.ParseRate(s)
	case "duration":
		d, err := profile.ParseDuration(s)
		return float64(d), err
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v, nil
}

// Space maps optimiser coordinates to parameter values: each coordinate is
// the logit of the parameter's position within its bounds (on a log scale
// for Log parameters), so the unconstrained Nelder–Mead never leaves them.
type Space []Param

// edge keeps a start value at least this share of its span inside the
// bounds: at a bound the logit is infinite, and near it the simplex's steps
// (simplexSize in logit units) would move the parameter by almost nothing
// (seed 001's outage arrival loss of 0 is a bound).
const edge = 0.05

// Encode returns the coordinates of values.
func (s Space) Encode(values []float64) []float64 {
	x := make([]float64, len(s))
	for i, p := range s {
		u := p.unit(values[i])
		u = min(max(u, edge), 1-edge)
		x[i] = math.Log(u / (1 - u))
	}
	return x
}

// Decode returns the values at coordinates x.
func (s Space) Decode(x []float64) []float64 {
	v := make([]float64, len(s))
	for i, p := range s {
		u := 1 / (1 + math.Exp(-x[i]))
		v[i] = p.at(u)
	}
	return v
}

func (p Param) unit(v float64) float64 {
	v = min(max(v, p.Lo), p.Hi)
	if p.Log {
		return math.Log(v/p.Lo) / math.Log(p.Hi/p.Lo)
	}
	return (v - p.Lo) / (p.Hi - p.Lo)
}

func (p Param) at(u float64) float64 {
	if p.Log {
		return p.Lo * math.Exp(u*math.Log(p.Hi/p.Lo))
	}
	return p.Lo + u*(p.Hi-p.Lo)
}

// Overrides is values as profile overrides, in the canonical text of
// profile.Numeric.Value (so equal values give equal run ids).
func (s Space) Overrides(values []float64) map[string]any {
	o := make(map[string]any, len(s))
	for i, p := range s {
		o[p.Path] = p.Value(values[i])
	}
	return o
}

// Canonical rounds values to what Overrides writes, so a reported value is
// the one the simulator ran.
func (s Space) Canonical(values []float64) []float64 {
	out := make([]float64, len(values))
	for i, p := range s {
		v, err := parseAny(p.Numeric, p.Value(values[i]))
		if err != nil {
			v = values[i]
		}
		out[i] = v
	}
	return out
}

func parseAny(n profile.Numeric, v any) (float64, error) {
	switch x := v.(type) {
	case string:
		return parseValue(n, x)
	case int64:
		return float64(x), nil
	case float64:
		return x, nil
	}
	return 0, fmt.Errorf("unexpected value %v", v)
}

// Has reports whether the space fits the parameter at path.
func (s Space) Has(path string) bool {
	for _, p := range s {
		if p.Path == path {
			return true
		}
	}
	return false
}
