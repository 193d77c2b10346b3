package main

import (
	"context"
	"fmt"
	"path/filepath"
	"text/tabwriter"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/paper002"
	"github.com/leolab/leolab/report"
	"github.com/spf13/cobra"
)

// runReproduce002 is `leolab reproduce --paper 002`: seed 002's campaigns
// (package paper002) run into one store, locally or on NATS workers, and
// read back into DIR/report.html with a section per figure and the verdict
// on each of the paper's five findings.
func runReproduce002(cmd *cobra.Command, f *reproduceFlags) error {
	if f.quick && f.full {
		return badInput("reproduce: --quick and --full exclude each other")
	}
	if len(f.cities)+len(f.directions)+len(f.kinds) > 0 {
		return badInput("reproduce --paper 002: --cities, --directions and --kinds apply to --paper 000 only")
	}
	if err := f.exec.check(cmd); err != nil {
		return err
	}
	if f.out == "" {
		f.out = "reproduce-002-quick"
		if f.full {
			f.out = "reproduce-002-full"
		}
	}
	if f.exec.store == "" {
		f.exec.store = filepath.Join(f.out, "store.db")
	}
	if err := mkdirAll(f.out); err != nil {
		return err
	}
	dir, err := filepath.Abs(f.out)
	if err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	parts, err := paper002.Plan(paper002.Options{Full: f.full, Dir: dir, Runs: f.runs, Duration: f.duration,
		Figures: f.figures, CCAs: f.ccas})
	if err != nil {
		return usageError{err}
	}
	var runs []campaign.Run
	for _, p := range parts {
		runs = append(runs, p.Runs...)
	}
	st, err := openStore(f.exec.store, "", false)
	if err != nil {
		return err
	}
	defer st.Close()
	sum, err := executeCampaign(cmd, runs, st, &f.exec)
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "seed 002: %d runs in %d campaigns: %d stored before, %d ran, %d failed in %v (store %s)\n",
		sum.Total, len(parts), sum.Skipped, sum.Ran, sum.Failed, sum.Wall.Round(1e6), st.Path())
	if err != nil {
		return err
	}
	d, err := paper002.Load(context.Background(), st, parts)
	if err != nil {
		return err
	}
	size := "--quick"
	if f.full {
		size = "--full"
	}
	rep, err := paper002.Report(d, parts, []report.Meta{{Key: "leolab", Value: versionString()},
		{Key: "command", Value: "leolab reproduce --paper 002 " + size}, {Key: "store", Value: st.Path()}})
	if err != nil {
		return err
	}
	if err := report.Write(f.out, rep); err != nil {
		return err
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	for _, v := range d.Verdicts() {
		fmt.Fprintf(w, "%s\t%s\t\n", v[0], v[1])
	}
	w.Flush()
	fmt.Fprintf(out, "report: %s\n", filepath.Join(f.out, report.HTMLFile))
	return nil
}
