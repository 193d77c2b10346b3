// Package simtest runs scenario text on the simulator for tests of the
// packages that read results (probe, learn): one helper instead of the
// parse–spec–run steps in each.
package simtest

import (
	"testing"

	_ "github.com/leolab/leolab/cc/all" // every congestion control a scenario may name
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

// Run parses a scenario YAML text and runs it on the simulator, failing
// the test on any error.
func Run(tb testing.TB, text string) *result.Result {
	tb.Helper()
	sc, err := scenario.Parse("test.yaml", []byte(text))
	if err != nil {
		tb.Fatal(err)
	}
	return RunScenario(tb, sc)
}

// RunFile is Run for a scenario file (its relative paths resolve against
// its directory).
func RunFile(tb testing.TB, path string) *result.Result {
	tb.Helper()
	sc, err := scenario.Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	return RunScenario(tb, sc)
}

// RunScenario is Run for a scenario already parsed (and perhaps edited,
// e.g. its seed): its spec run on the simulator.
func RunScenario(tb testing.TB, sc *scenario.Scenario) *result.Result {
	tb.Helper()
	spec, err := sc.Spec()
	if err != nil {
		tb.Fatal(err)
	}
	res, err := netsim.Run(spec)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}
