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

// Contradictory or foreign flags and unknown figures are bad input (exit
// 2), refused before anything runs.
func TestReproduce002Flags(t *testing.T) {
	for _, f := range []reproduceFlags{{quick: true, full: true}, {cities: []string{"sydney"}},
		{figures: []string{"fig99"}, out: t.TempDir()}} {
		err := runReproduce002(&cobra.Command{}, &f)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%+v: error %v, want a usage error", f, err)
		}
	}
}

// A tiny study through the command: three figures (one a topology), CUBIC
// only, 2 runs × 12 s (20 runs, a few seconds): the report, its figures and CSVs, the campaign
// files and LeoEM data beside them; a second invocation resumes from the
// store and runs nothing.
func TestReproduce002Tiny(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	run := func() string {
		var out, errOut bytes.Buffer
		code := run([]string{"reproduce", "--paper", "002", "--out", dir, "--runs", "2", "--duration", "12s", "--ccas", "cubic",
			"--figures", "fig2,fig9b,fig9c", "--no-progress"}, &out, &errOut)
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
		}
		return out.String()
	}
	out := run()
	if !strings.Contains(out, "20 runs in 3 campaigns: 0 stored before, 20 ran") || !strings.Contains(out, "report: "+filepath.Join(dir, "report.html")) {
		t.Errorf("stdout:\n%s", out)
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Fig. 9(b): three bottlenecks with SFQ", "max–min share", "five findings", "Sage and Astraea", "95 % confidence interval"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	for _, name := range []string{"fig2-two-flows.csv", "fig9c-aqm.csv", "fig9c-aqm.svg", "fig9c-jain.png",
		"campaigns/fig9c-aqm.yaml", "fig9b-parking-lot.csv", "fig9b-agg-jain.svg", "campaigns/fig9b-parking-lot-sfq.yaml", "leoem/Starlink_SD_NY_15_BP_path.log", "leoem/timing_err_ecdf.dat"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if again := run(); !strings.Contains(again, "20 stored before, 0 ran") {
		t.Errorf("resume:\n%s", again)
	}
	checkRendered(t, dir, 3) // the three figures asked for
}
