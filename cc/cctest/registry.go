package cctest

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/leolab/leolab/cc"
)

// Registered fails t unless name is in the cc registry with a
// description, a source and the given defaults among its Params, and
// unless cc.New refuses every parameter set in bad with an error that
// names one of the set's keys. It returns the registration.
func Registered(t testing.TB, name string, defaults map[string]float64, bad ...map[string]float64) cc.Info {
	t.Helper()
	info, ok := cc.Lookup(name)
	if !ok {
		t.Fatalf("%s not registered", name)
	}
	if info.Description == "" || info.Source == "" {
		t.Errorf("%s: registered without a description or a source: %+v", name, info)
	}
	for _, k := range slices.Sorted(maps.Keys(defaults)) {
		if got, ok := info.Params[k]; !ok || got != defaults[k] {
			t.Errorf("%s: default %s = %v (declared %v), want %v", name, k, got, ok, defaults[k])
		}
	}
	for _, params := range bad {
		_, err := cc.New(name, cc.Config{Params: params})
		if err == nil || !namesKey(err.Error(), params) {
			t.Errorf("%s with params %v: error %v, want one naming the offending key", name, params, err)
		}
	}
	return info
}

// namesKey reports whether msg mentions one of params' keys.
func namesKey(msg string, params map[string]float64) bool {
	for k := range params {
		if strings.Contains(msg, k) {
			return true
		}
	}
	return false
}
