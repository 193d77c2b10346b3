// Command leolab is the CLI of the leolab toolkit: it parses flags and
// scenario files, calls the packages that do the work and prints results.
// Human output goes to stdout, diagnostics to stderr; --json gives machine
// output. Exit status: 0 success, 1 runtime failure, 2 bad input or usage,
// 130 interrupted.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/scenario"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usageError marks errors in the command line or input files (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func badInput(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// run executes the CLI and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "leolab: "+err.Error())
	var ue usageError
	var se *scenario.Error
	switch {
	case errors.As(err, &ue), errors.As(err, &se), isCobraUsage(err):
		return 2
	case errors.Is(err, errInterrupted):
		return 130
	}
	return 1
}
