package main

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Exit statuses: a panic in a command is exit 3 with one line asking for
// a report, no stack trace; errors map to 1, 2 and 130.
func TestExitCodes(t *testing.T) {
	root := newRoot()
	root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error {
		var m map[string]int
		m["x"] = 1 // a nil map: a real runtime panic
		return nil
	}})
	var out, errb strings.Builder
	code := runRoot(root, []string{"boom"}, &out, &errb)
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	if code != 3 || len(lines) != 1 || !strings.Contains(lines[0], "internal error: assignment to entry in nil map") ||
		!strings.Contains(lines[0], "please report it") || strings.Contains(errb.String(), "goroutine") {
		t.Errorf("panic: exit %d, stderr %q; want 3 and one line asking for a report", code, errb.String())
	}
	for _, c := range []struct {
		err  error
		want int
	}{
		{errors.New("run failed"), 1},
		{badInput("--rate: bad"), 2},
		{errInterrupted, 130},
	} {
		if got := exitCode(c.err); got != c.want {
			t.Errorf("%v: exit %d, want %d", c.err, got, c.want)
		}
	}
	// A directory named as the scenario file (issue 18: it exited 1).
	if code, _, stderr := runCLI("sim", "-f", t.TempDir()); code != 2 || !strings.Contains(stderr, "is a directory") {
		t.Errorf("sim -f DIR: exit %d, %q; want 2", code, stderr)
	}
}

// The same through a real process: the status the shell sees.
func TestExitCodeProcess(t *testing.T) {
	cmd := cliProcess(t, "sim", "--no-such-flag")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || strings.Contains(string(out), "goroutine") {
		t.Errorf("bad flag: %v %q, want exit 2", err, out)
	}
}
