package scenario_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/scenario"
)

// loadSpec loads a scenario file and builds its simulator spec; any error
// fails the test.
func loadSpec(t testing.TB, file string) (*scenario.Scenario, netsim.Spec) {
	t.Helper()
	sc, spec, err := scenario.LoadSpec(file)
	if err != nil {
		t.Fatal(err)
	}
	return sc, spec
}

// writeScenario writes src as s.yaml in a fresh temporary directory and
// returns its path.
func writeScenario(t testing.TB, src string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
