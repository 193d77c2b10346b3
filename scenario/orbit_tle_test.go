package scenario_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/orbit"
)

// path.orbit.tle: the example's slots are `leolab orbit path --tle`'s
// (the same element sets, propagated with SGP4, on the run's epoch), the
// file is found next to the scenario, and the base RTT is rtt plus twice
// the first slot's propagation delay.
func TestOrbitTLEExample(t *testing.T) {
	const file = "../examples/orbit/tle-melbourne-fixed.yaml"
	sc, spec := loadSpec(t, file)
	got := sc.OrbitPaths()

	f, err := os.Open("../examples/orbit/starlink-like.tle")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tles, err := orbit.ReadTLEs(f, "starlink-like.tle")
	if err != nil {
		t.Fatal(err)
	}
	set, err := orbit.NewTLESet(tles)
	if err != nil {
		t.Fatal(err)
	}
	from, _ := orbit.ParseLatLon("-37.85,145.11")
	to, _ := orbit.ParseLatLon("-33.87,151.21")
	want, err := orbit.Schedule(set, orbit.PathConfig{From: from, To: to, Mode: orbit.BentPipe, Policy: orbit.Highest,
		Start: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), Duration: 120 * time.Second, Slot: orbit.DefaultSlot,
		MinElevation: orbit.DefaultMinElevation, Gateways: orbit.Gateways()})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 8 || len(got) != len(want) {
		t.Fatalf("%d slots, want 8 (orbit path: %d)", len(got), len(want))
	}
	for k := range want {
		if got[k].Serving != want[k].Serving || got[k].OneWay != want[k].OneWay || got[k].Outage {
			t.Errorf("slot %d: %s %v outage %v, want %s %v", k, got[k].Serving, got[k].OneWay, got[k].Outage, want[k].Serving, want[k].OneWay)
		}
		if !strings.HasPrefix(got[k].Serving, "STARLINK-LIKE ") {
			t.Errorf("slot %d served by %q, not an element set of the file", k, got[k].Serving)
		}
	}
	if w := 20*time.Millisecond + 2*want[0].OneWay; spec.BaseRTT != w {
		t.Errorf("base RTT %v, want %v", spec.BaseRTT, w)
	}
}

// Bad path.orbit.tle input: one error naming the scenario file, the field
// and, for a malformed element set, the TLE file's line.
func TestOrbitTLEBadInput(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile("../examples/orbit/starlink-like.tle")
	if err != nil {
		t.Fatal(err)
	}
	// Line 13 is the first element set's line 1; break its checksum.
	bad := strings.Replace(string(good), "10000-3 0  9991", "10000-3 0  9992", 1)
	for name, body := range map[string]string{"sats.tle": string(good), "bad.tle": bad, "empty.tle": "# nothing\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const orb = `orbit: {from: "-37.85,145.11", to: "-33.87,151.21", `
	src := func(orbit string) string {
		return "version: 1\nduration: 60s\npath:\n  profile: fixed\n  rate: 10Mbps\n  rtt: 10ms\n  " +
			orbit + "\n  owd_source: orbit\nflows: [{cca: cubic}]\n"
	}
	testBadInput(t, filepath.Join(dir, "scen.yaml"), []badInput{
		{"isl", src(orb + `tle: sats.tle, mode: isl}`),
			[]string{"scen.yaml:7: path.orbit.mode: isl needs a Walker shell's links; it cannot be used with tle (use mode bentpipe)"}},
		{"shell too", src(orb + `tle: sats.tle, shell: starlink-1}`),
			[]string{"scen.yaml:7: path.orbit.tle: and path.orbit.shell both name the satellites; give one"}},
		{"missing", src(orb + `tle: nope.tle}`),
			[]string{"scen.yaml:7: path.orbit.tle: open " + filepath.Join(dir, "nope.tle") + ": no such file or directory"}},
		{"checksum", src(orb + `tle: bad.tle}`),
			[]string{"scen.yaml:7: path.orbit.tle: " + filepath.Join(dir, "bad.tle") + ":13: tle line 1 column 69 (checksum): got 2, want 1 (allowed: the sum of the line's digits, each - counting 1, mod 10)"}},
		{"empty", src(orb + `tle: empty.tle}`),
			[]string{"path.orbit.tle: " + filepath.Join(dir, "empty.tle") + ": no element sets"}},
	})
}
