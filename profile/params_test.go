package profile

import (
	"strings"
	"testing"
)

func TestParamsCoverEveryField(t *testing.T) {
	ps := params(&StarlinkProfile{})
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.path] {
			t.Errorf("duplicate path %s", p.path)
		}
		seen[p.path] = true
		if p.kind != kindBool && p.kind != kindEnum && p.lo == 0 && p.hi == 0 {
			t.Errorf("%s has no range tag", p.path)
		}
	}
	for _, want := range []string{"downlink.queue.limit_packets", "uplink.alloc.hold", "pop.rate", "terrestrial.one_way", "reconfig.rtt_steps.magnitudes"} {
		if !seen[want] {
			t.Errorf("path %s missing", want)
		}
	}
}

// Every parameter must be set by starlink.yaml: a missing line would leave a
// silent zero default.
func TestStarlinkYAMLSetsEveryParameter(t *testing.T) {
	data, err := files.ReadFile("profiles/starlink.yaml")
	if err != nil {
		t.Fatal(err)
	}
	es, err := flatten(data)
	if err != nil {
		t.Fatal(err)
	}
	inFile := map[string]bool{}
	for _, e := range es {
		inFile[e.path] = true
	}
	for _, p := range params(&StarlinkProfile{}) {
		if !inFile[p.path] {
			t.Errorf("starlink.yaml does not set %s", p.path)
		}
	}
}

// FuzzOverride applies one override to the default profile: it must never
// panic, an error must name the path, and an accepted value must survive a
// Show/Load round trip unchanged.
func FuzzOverride(f *testing.F) {
	f.Add("downlink.queue.limit_packets", "1000")
	f.Add("uplink.alloc.base", "40Mbps")
	f.Add("reconfig.rtt_steps.magnitudes", "0s, 10ms")
	f.Add("downlink.aqm.mode", "linear")
	f.Add("pop.enabled", "false")
	f.Add("downlink.alloc.multiplier", "0.5")
	f.Add("no.such.path", "1")
	f.Fuzz(func(t *testing.T, path, value string) {
		sp, err := Starlink("", map[string]any{path: value})
		if err != nil {
			if !namesParameter(err.Error()) {
				t.Fatalf("error %q names no parameter", err)
			}
			return
		}
		back, err := LoadStarlink([]byte(sp.YAML()), "", nil)
		if err != nil {
			t.Fatalf("override %s=%q accepted but its YAML does not load: %v", path, value, err)
		}
		if back.YAML() != sp.YAML() {
			t.Fatalf("override %s=%q does not round-trip", path, value)
		}
	})
}

// namesParameter reports whether msg names a parameter path (possibly a
// related one, for cross-parameter constraints) or says the path is unknown.
func namesParameter(msg string) bool {
	if strings.Contains(msg, "unknown parameter") {
		return true
	}
	for _, p := range params(&StarlinkProfile{}) {
		if strings.Contains(msg, p.path) {
			return true
		}
	}
	return false
}
