package main

import (
	"fmt"
	"path/filepath"
	"text/tabwriter"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/paper003"
	"github.com/leolab/leolab/report"
	"github.com/spf13/cobra"
)

// runReproduce003 is `leolab reproduce --paper 003`: seed 003's four CCAs
// × six cities × both directions × independent/competing on the simulator
// (a campaign resumable from DIR/store.db), then its Figs. 2–5 as box
// plots next to the real runs (package paper003), written as
// DIR/report.html with its figures and tables.
func runReproduce003(cmd *cobra.Command, f *reproduceFlags) error {
	if f.quick && f.full {
		return badInput("reproduce: --quick and --full exclude each other")
	}
	if len(f.ccas) > 0 {
		return badInput("reproduce --paper 003: --ccas does not apply: seed 003 compares bbr, cubic, vegas and hybla")
	}
	if err := f.exec.check(cmd); err != nil {
		return err
	}
	c, err := paper003.Campaign(campaign.Seed000Options{Full: f.full, Runs: f.runs, Duration: f.duration,
		Cities: f.cities, Directions: f.directions, Kinds: f.kinds})
	if err != nil {
		return usageError{err}
	}
	runs, st, err := runCampaignIn(cmd, f, c, "reproduce-003")
	if err != nil {
		return err
	}
	defer st.Close()
	ctx := cmd.Context()
	sim, err := paper003.SimFlows(ctx, st, runs)
	if err != nil {
		return err
	}
	realRuns, err := campaign.RealRuns()
	if err != nil {
		return err
	}
	traces, err := paper003.RealTraces()
	if err != nil {
		return err
	}
	d := paper003.Collect(sim, realRuns, traces)
	size := "--quick"
	if f.full {
		size = "--full"
	}
	rep, err := d.Report([]report.Meta{{Key: "leolab", Value: versionString()},
		{Key: "command", Value: "leolab reproduce --paper 003 " + size},
		{Key: "campaign", Value: fmt.Sprintf("%s: %d runs of %v, seeds %v", c.Name, len(runs), c.Duration, c.Seeds)},
		{Key: "store", Value: st.Path()},
		{Key: "real data", Value: campaign.RealProvenance()}})
	if err != nil {
		return err
	}
	if err := report.Write(f.out, rep); err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	holds, n := d.ClaimsHeld()
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "seed 003 statements holding on the simulated boxes:\t%d of %d\t\n", holds, n)
	w.Flush()
	fmt.Fprintf(out, "report: %s\n", filepath.Join(f.out, report.HTMLFile))
	return nil
}
