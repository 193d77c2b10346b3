package cctest_test

import (
	"fmt"
	"testing"

	"github.com/leolab/leolab/cc/cctest"
	_ "github.com/leolab/leolab/cc/cubic"
)

// spy records what a helper reports instead of failing the test.
type spy struct {
	testing.TB
	errors []string
}

func (s *spy) Helper()                      {}
func (s *spy) Errorf(f string, args ...any) { s.errors = append(s.errors, fmt.Sprintf(f, args...)) }
func (s *spy) Fatalf(f string, args ...any) { s.Errorf(f, args...) }
func (s *spy) Logf(string, ...any)          {}
func (s *spy) Fatal(args ...any)            { s.errors = append(s.errors, fmt.Sprint(args...)) }

// CUBIC is registered with hystart = 1 (Linux HyStart) and refuses an
// out-of-range hystart and an unknown key by name; a wrong default, an
// accepted parameter set or a missing name is reported.
func TestRegistered(t *testing.T) {
	info := cctest.Registered(t, "cubic", map[string]float64{"hystart": 1, "fast_convergence": 1},
		map[string]float64{"hystart": 7}, map[string]float64{"nope": 1})
	if info.Name != "cubic" {
		t.Errorf("returned %q, want cubic's registration", info.Name)
	}
	for _, tc := range []struct {
		name     string
		defaults map[string]float64
		bad      []map[string]float64
	}{
		{"cubic", map[string]float64{"hystart": 2}, nil},
		{"cubic", map[string]float64{"no_such_default": 0}, nil},
		{"cubic", nil, []map[string]float64{{"hystart": 2}}},
		{"no-such-cca", nil, nil},
	} {
		s := &spy{TB: t}
		cctest.Registered(s, tc.name, tc.defaults, tc.bad...)
		if len(s.errors) == 0 {
			t.Errorf("%s defaults %v bad %v: no error reported", tc.name, tc.defaults, tc.bad)
		}
	}
}
