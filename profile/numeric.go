package profile

import (
	"fmt"
	"strconv"
	"time"
)

// Numeric is a numeric Starlink parameter as a fitter sees it: its value in
// the internal unit (ns for durations, bits/s for rates) and its allowed
// range. `leolab calibrate` moves parameters through these.
type Numeric struct {
	Path   string
	Unit   string  // "duration", "rate", "float" or "int"
	Lo, Hi float64 // allowed range, internal unit
}

// StarlinkNumeric describes the numeric Starlink parameter at path.
func StarlinkNumeric(path string) (Numeric, error) {
	p, err := lookup(params(&StarlinkProfile{}), path)
	if err != nil {
		return Numeric{}, err
	}
	units := map[kind]string{kindDuration: "duration", kindRate: "rate", kindFloat: "float", kindInt: "int"}
	u, ok := units[p.kind]
	if !ok {
		return Numeric{}, fmt.Errorf("parameter %s is not a number (allowed: %s)", path, p.allowed())
	}
	return Numeric{Path: path, Unit: u, Lo: p.lo, Hi: p.hi}, nil
}

// Get returns the value of the numeric parameter at path in its internal
// unit.
func (sp *StarlinkProfile) Get(path string) (float64, error) {
	p, err := lookup(params(sp), path)
	if err != nil {
		return 0, err
	}
	switch p.kind {
	case kindDuration, kindInt:
		return float64(p.v.Int()), nil
	case kindRate, kindFloat:
		return p.v.Float(), nil
	}
	return 0, fmt.Errorf("parameter %s is not a number", path)
}

// Value is v (internal unit) written as an override value that the profile
// reads back: "21.5Mbps", "412ms", 0.031 or 42. Rates and durations keep six
// significant digits, so a value's text (and a campaign run's id) is
// canonical.
func (n Numeric) Value(v float64) any {
	switch n.Unit {
	case "duration":
		return time.Duration(v).Round(time.Microsecond).String()
	case "rate":
		return strconv.FormatFloat(v/1e6, 'g', 6, 64) + "Mbps"
	case "int":
		return int64(v + 0.5)
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return f
}

// Format is v (internal unit) for people: "21.5 Mbit/s", "412ms", "0.031".
func (n Numeric) Format(v float64) string {
	switch n.Unit {
	case "rate":
		return FormatRate(v)
	case "duration", "int":
		return fmt.Sprint(n.Value(v))
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// CheckValue reports whether value is one the Starlink parameter at path
// accepts on its own (its type, unit and range), without the profile's
// cross-parameter checks: a value a fit holds or starts from may need the
// fit's ties (the drift's median change follows the rates) to make a whole
// profile.
func CheckValue(path string, value any) error {
	ps := params(&StarlinkProfile{})
	return apply(ps, overrideEntries(map[string]any{path: value}), "override")
}
