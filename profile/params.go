package profile

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leolab/leolab/internal/quantity"
)

// kind is how a parameter's value is written and checked.
type kind uint8

const (
	kindDuration kind = iota
	kindDurations
	kindRate
	kindFloat
	kindInt
	kindBool
	kindEnum
)

// param is one addressable profile parameter: its dotted path, the field it
// sets and its allowed range (inclusive) or values.
type param struct {
	path   string
	kind   kind
	v      reflect.Value
	lo, hi float64 // for durations in ns, rates in bits/s
	enum   []string
}

var (
	durationType  = reflect.TypeFor[time.Duration]()
	durationsType = reflect.TypeFor[[]time.Duration]()
)

// params lists the parameters of the struct root points to, in field order.
func params(root any) []param {
	var out []param
	walk(reflect.ValueOf(root).Elem(), "", &out)
	return out
}

func walk(v reflect.Value, prefix string, out *[]param) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name := f.Tag.Get("yaml")
		if name == "" || name == "-" {
			continue
		}
		path := prefix + name
		fv := v.Field(i)
		if f.Type.Kind() == reflect.Struct {
			walk(fv, path+".", out)
			continue
		}
		p := param{path: path, v: fv}
		switch {
		case f.Type == durationType:
			p.kind = kindDuration
		case f.Type == durationsType:
			p.kind = kindDurations
		case f.Type.Kind() == reflect.Float64 && f.Tag.Get("unit") == "rate":
			p.kind = kindRate
		case f.Type.Kind() == reflect.Float64:
			p.kind = kindFloat
		case f.Type.Kind() == reflect.Int:
			p.kind = kindInt
		case f.Type.Kind() == reflect.Bool:
			p.kind = kindBool
		case f.Type.Kind() == reflect.String:
			p.kind = kindEnum
			p.enum = strings.Split(f.Tag.Get("enum"), ",")
		default:
			panic("leolab BUG: profile field of unsupported type " + path)
		}
		if r := f.Tag.Get("range"); r != "" {
			p.lo, p.hi = parseRange(p.kind, r, path)
		}
		*out = append(*out, p)
	}
}

// parseRange reads a range tag; a malformed tag is a programming error.
func parseRange(k kind, tag, path string) (lo, hi float64) {
	a, b, ok := strings.Cut(tag, ",")
	if !ok {
		panic("leolab BUG: bad range tag on " + path)
	}
	conv := func(s string) float64 {
		var v float64
		var err error
		switch k {
		case kindDuration, kindDurations:
			var d time.Duration
			d, err = ParseDuration(s)
			v = float64(d)
		case kindRate:
			v, err = ParseRate(s)
		default:
			v, err = strconv.ParseFloat(s, 64)
		}
		if err != nil {
			panic("leolab BUG: bad range tag on " + path + ": " + err.Error())
		}
		return v
	}
	return conv(a), conv(b)
}

// allowed describes the parameter's allowed values for error messages.
func (p *param) allowed() string {
	switch p.kind {
	case kindDuration, kindDurations:
		return fmt.Sprintf("%v..%v", time.Duration(p.lo), time.Duration(p.hi))
	case kindRate:
		return fmt.Sprintf("%s..%s", FormatRate(p.lo), FormatRate(p.hi))
	case kindFloat, kindInt:
		return fmt.Sprintf("%g..%g", p.lo, p.hi)
	case kindBool:
		return "true or false"
	default:
		return strings.Join(p.enum, ", ")
	}
}

// set converts value (a YAML scalar or list, or a CLI string) and stores it
// if it is within range.
func (p *param) set(value any) error {
	bad := func(why string) error {
		return fmt.Errorf("%s: %v %s (allowed: %s)", p.path, value, why, p.allowed())
	}
	switch p.kind {
	case kindDurations:
		list, err := toList(value)
		if err != nil {
			return bad("is not a list of durations")
		}
		ds := make([]time.Duration, 0, len(list))
		for _, e := range list {
			d, err := toDuration(e)
			if err != nil || float64(d) < p.lo || float64(d) > p.hi {
				return bad("has an element out of range")
			}
			ds = append(ds, d)
		}
		p.v.Set(reflect.ValueOf(ds))
		return nil
	case kindBool:
		b, ok := toBool(value)
		if !ok {
			return bad("is not a boolean")
		}
		p.v.SetBool(b)
		return nil
	case kindEnum:
		s, ok := value.(string)
		if !ok || !slices.Contains(p.enum, s) {
			return bad("is not one of the allowed values")
		}
		p.v.SetString(s)
		return nil
	}
	x, err := p.number(value)
	if err != nil {
		return bad(err.Error())
	}
	// The shared check (finite, within the tag's range) after the unit
	// was applied: 1e300Tbps is +Inf here and out of range.
	if quantity.Float(x, p.lo, p.hi) != nil {
		return bad("is out of range")
	}
	switch p.kind {
	case kindDuration, kindInt:
		p.v.SetInt(int64(x))
	default:
		p.v.SetFloat(x)
	}
	return nil
}

// number converts a scalar parameter value to float64 in the parameter's
// internal unit (ns for durations, bits/s for rates).
func (p *param) number(value any) (float64, error) {
	switch p.kind {
	case kindDuration:
		d, err := toDuration(value)
		return float64(d), err
	case kindRate:
		if s, ok := value.(string); ok {
			return ParseRate(s)
		}
		if f, ok := toFloat(value); ok && f == 0 {
			return 0, nil
		}
		return 0, fmt.Errorf("needs a unit, e.g. 100Mbps")
	case kindInt:
		f, ok := toFloat(value)
		if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return 0, fmt.Errorf("is not an integer")
		}
		return f, nil
	default:
		f, ok := toFloat(value)
		if !ok {
			return 0, fmt.Errorf("is not a number")
		}
		return f, nil
	}
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

func toBool(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		b, err := strconv.ParseBool(x)
		return b, err == nil
	}
	return false, false
}

func toDuration(v any) (time.Duration, error) {
	if s, ok := v.(string); ok {
		return ParseDuration(s)
	}
	if f, ok := toFloat(v); ok && f == 0 {
		return 0, nil
	}
	return 0, fmt.Errorf("needs a unit, e.g. 45ms")
}

// toList accepts a YAML list or a comma-separated string.
func toList(v any) ([]any, error) {
	switch x := v.(type) {
	case []any:
		return x, nil
	case string:
		var out []any
		for f := range strings.SplitSeq(x, ",") {
			if f = strings.TrimSpace(f); f != "" {
				out = append(out, f)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("not a list")
}

// format prints the parameter's value as ParseRate/ParseDuration read it.
func (p *param) format() string {
	switch p.kind {
	case kindDuration:
		return time.Duration(p.v.Int()).String()
	case kindDurations:
		ds := p.v.Interface().([]time.Duration)
		parts := make([]string, len(ds))
		for i, d := range ds {
			parts[i] = d.String()
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case kindRate:
		return FormatRate(p.v.Float())
	case kindFloat:
		return strconv.FormatFloat(p.v.Float(), 'g', -1, 64)
	case kindInt:
		return strconv.FormatInt(p.v.Int(), 10)
	case kindBool:
		return strconv.FormatBool(p.v.Bool())
	default:
		return p.v.String()
	}
}

// lookup finds the parameter at path.
func lookup(ps []param, path string) (*param, error) {
	for i := range ps {
		if ps[i].path == path {
			return &ps[i], nil
		}
	}
	return nil, fmt.Errorf("unknown parameter %q (see `leolab profile show` for the parameter paths)", path)
}

// checkAll re-validates every parameter's current value against its range.
func checkAll(ps []param) error {
	for i := range ps {
		p := &ps[i]
		var cur any
		switch p.kind {
		case kindDuration, kindDurations, kindRate:
			cur = p.format()
			if p.kind == kindDurations {
				cur = strings.Trim(p.format(), "[]")
			}
		case kindFloat:
			cur = p.v.Float()
		case kindInt:
			cur = p.v.Int()
		case kindBool:
			cur = p.v.Bool()
		default:
			cur = p.v.String()
		}
		if err := p.set(cur); err != nil {
			return err
		}
	}
	return nil
}
