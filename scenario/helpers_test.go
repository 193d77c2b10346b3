package scenario_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// badInput is a scenario that must be refused: its text and what the
// error must say (the file and line, the field, what is allowed).
type badInput struct {
	name string
	src  string
	want []string // substrings of the message
}

// testBadInput parses each case's text as file (scenario.Parse; relative
// files it names resolve beside file) and, in a subtest named after the
// case, checks that it is refused with a *scenario.Error whose message is
// one line naming file and holding every want.
func testBadInput(t *testing.T, file string, cases []badInput) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := scenario.Parse(file, []byte(c.src))
			var se *scenario.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *scenario.Error", err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("message spans lines: %q", msg)
			}
			for _, w := range append([]string{file}, c.want...) {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
		})
	}
}
