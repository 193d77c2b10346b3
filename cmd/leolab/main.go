// Command leolab is the CLI of the leolab toolkit: it parses flags and
// scenario files, calls the packages that do the work and prints results.
// Human output goes to stdout, diagnostics to stderr; --json gives machine
// output. Exit status (main.go): 0 success, 1 run failed or partial,
// 2 bad input or usage, 3 internal error (a recovered panic), 130
// interrupted.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/scenario"
	"github.com/spf13/cobra"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK          = 0
	exitFailed      = 1   // the run failed, or only part of it succeeded
	exitBadInput    = 2   // bad input or usage
	exitInternal    = 3   // a bug: a recovered panic
	exitInterrupted = 130 // SIGINT: 128 + 2, what a shell reports
)

// usageError marks errors in the command line or input files (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func badInput(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// run executes the CLI and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	return runRoot(newRoot(), args, stdout, stderr)
}

// runRoot executes root with args. A panic in a command (on its goroutine)
// is a bug: one line asking to report it, exit 3, never a Go stack trace.
func runRoot(root *cobra.Command, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if v := recover(); v != nil {
			msg := strings.Join(strings.Fields(fmt.Sprint(v)), " ")
			fmt.Fprintf(stderr, "leolab: internal error: %s (a bug in leolab: please report it with the command line that caused it)\n", msg)
			code = exitInternal
		}
	}()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "leolab: "+err.Error())
	return exitCode(err)
}

// exitCode classifies a command's error.
func exitCode(err error) int {
	var ue usageError
	var se *scenario.Error
	switch {
	case errors.As(err, &ue), errors.As(err, &se), isCobraUsage(err):
		return exitBadInput
	case errors.Is(err, syscall.EISDIR): // a directory where a file was named
		return exitBadInput
	case errors.Is(err, errInterrupted):
		return exitInterrupted
	}
	return exitFailed
}
