package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/leolab/leolab/analyze"
	"github.com/leolab/leolab/report"
	"github.com/spf13/cobra"
)

type analyzeFlags struct {
	out  string
	json bool
}

func newAnalyzeCmd() *cobra.Command {
	var f analyzeFlags
	c := &cobra.Command{
		Use:   "analyze PATH...",
		Short: "Metrics, fairness and a report from iperf3 logs, leolab results and dataset traces",
		Long: `Analyse iperf3 JSON logs (3.x, TCP), leolab result JSON (sim --json), the Starlink
dataset's per-second CSV traces and end-summary CSVs, or directories of them
(searched recursively for *.json and *.csv). Flows are grouped by direction,
city and scenario kind from file names or metadata; concurrent flows get
fairness figures. The metrics table goes to stdout (--json for machine form);
--out DIR writes report.html (self-contained), every plot as PNG and SVG, and
the tables as CSV. A file that cannot be read is reported on stderr (file and
byte offset) and the others are still analysed; the exit status is then 1.`,
		Example: `  leolab analyze ../shared/data/starlink-iperf3/traces
  leolab analyze logs/ --out report/
  leolab sim -f examples/dumbbell-cubic.yaml --json > r.json && leolab analyze r.json
  leolab analyze run1_summary.csv --json`,
		RunE: func(cmd *cobra.Command, args []string) error { return runAnalyze(cmd, args, &f) },
	}
	c.Flags().StringVar(&f.out, "out", "", "write report.html, plots (PNG+SVG) and CSV tables into `DIR`")
	c.Flags().BoolVar(&f.json, "json", false, "print the metrics as JSON instead of a table")
	return c
}

func runAnalyze(cmd *cobra.Command, args []string, f *analyzeFlags) error {
	if len(args) == 0 {
		return badInput("analyze: no PATH given (iperf3 JSON, leolab result JSON, CSV traces or directories)")
	}
	for _, p := range args {
		if _, err := os.Stat(p); err != nil {
			return badInput("analyze: %v", err)
		}
	}
	in, errs := analyze.Load(args)
	stderr := cmd.ErrOrStderr()
	for _, w := range in.Warnings {
		fmt.Fprintln(stderr, "leolab: analyze: warning: "+w)
	}
	if len(in.Flows) == 0 {
		if len(errs) > 0 {
			return inputErrors(errs)
		}
		return badInput("analyze: no iperf3 JSON, result JSON or CSV input in %s", strings.Join(args, " "))
	}
	a := analyze.Analyze(in.Flows)
	if err := printAnalysis(cmd.OutOrStdout(), a, in, errs, f.json); err != nil {
		return err
	}
	if f.out != "" {
		r := analyze.BuildReport(a, analyze.ReportOptions{
			Meta: []report.Meta{{Key: "leolab", Value: versionString()}, {Key: "inputs", Value: strings.Join(args, " ")},
				{Key: "files", Value: fmt.Sprintf("%d read, %d failed", len(in.Files), len(errs))}},
			Warnings: in.Warnings, Errors: errorLines(errs)})
		if err := report.Write(f.out, r); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
		fmt.Fprintf(stderr, "wrote %s\n", filepath.Join(f.out, report.HTMLFile))
	}
	if len(errs) > 0 {
		return inputErrors(errs)
	}
	return nil
}

// analysisJSON is the --json document.
type analysisJSON struct {
	*analyze.Analysis
	Files    []string `json:"files"`
	Warnings []string `json:"warnings"`
	Errors   []string `json:"errors"`
}

func printAnalysis(out io.Writer, a *analyze.Analysis, in *analyze.Input, errs []error, asJSON bool) error {
	if !asJSON {
		return a.WriteText(out)
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	doc := analysisJSON{Analysis: a, Files: in.Files, Warnings: in.Warnings, Errors: errorLines(errs)}
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	return nil
}

func errorLines(errs []error) []string {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.Error()
	}
	return lines
}

// inputErrors is the failure of one or more input files: one line each.
// run prints the first with its "leolab: " prefix; Error gives the others
// the same prefix, so every bad file reads as one diagnostic line.
type inputErrors []error

func (e inputErrors) Error() string {
	return strings.Join(errorLines(e), "\nleolab: ")
}
