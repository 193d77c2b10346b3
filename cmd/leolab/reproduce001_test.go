package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// runReproduce001 refuses contradictory or foreign flags before running
// anything (exit 2).
func TestReproduce001Flags(t *testing.T) {
	for _, f := range []reproduceFlags{{quick: true, full: true}, {cities: []string{"sydney"}}, {runs: 3}} {
		err := runReproduce001(&cobra.Command{}, &f)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%+v: error %v, want a usage error", f, err)
		}
	}
}

// The quick study end to end: report.html with the eleven figures, a CSV
// per table, the per-profile summary on stdout, exit 0 (every quantity
// within tolerance). About two minutes on 2 cores: skipped with -short.
func TestReproduce001Quick(t *testing.T) {
	if testing.Short() {
		t.Skip("the quick study takes about two minutes on 2 cores")
	}
	dir := filepath.Join(t.TempDir(), "out")
	var out, errOut bytes.Buffer
	cmd := &cobra.Command{}
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	if err := runReproduce001(cmd, &reproduceFlags{out: dir}); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errOut.String())
	}
	for _, want := range []string{"default", "small-shared-30s", "fast-dl-slow-ul", "report: " + filepath.Join(dir, "report.html")} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(html), "<svg"); n != 11 {
		t.Errorf("report.html has %d figures, want 11", n)
	}
	checkRendered(t, dir, 11)
	for _, name := range []string{"summary.csv", "quantities-default.csv", "slow-start.csv", "recovery.csv", "pop-limiter.svg", "queue-bursts.png"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// --engine emu: --paper 001 accepts it (the quick study, live), and
// refuses --full with exit 2 saying why, before anything runs; the live
// study itself is repro001's TestLiveSubsetMatchesProfile (the whole one
// takes about 8 minutes of wall clock: run by hand).
func TestReproduceEngineEmu(t *testing.T) {
	f := reproduceFlags{paper: paperSeed001, engine: "emu"}
	if err := f.checkEngine(); err != nil {
		t.Fatalf("--paper 001 --engine emu refused: %v", err)
	}
	code, out, errOut := runCLI("reproduce", "--paper", "001", "--engine", "emu", "--full", "--out", t.TempDir())
	if code != 2 || !strings.Contains(errOut, "--full runs on --engine sim only") || out != "" {
		t.Errorf("--full --engine emu: exit %d, stdout %q, stderr %q; want 2 naming the reason", code, out, errOut)
	}
}
