package main

import (
	"fmt"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/cc/lmbbr"
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
	f9, err := reproduceFig9(cmd, f, st, sim)
	if err != nil {
		return err
	}
	size := "--quick"
	if f.full {
		size = "--full"
	}
	rep, err := d.Report([]report.Meta{{Key: "leolab", Value: versionString()},
		{Key: "command", Value: "leolab reproduce --paper 003 " + size},
		{Key: "campaign", Value: fmt.Sprintf("%s: %d runs of %v, seeds %v", c.Name, len(runs), c.Duration, c.Seeds)},
		{Key: "store", Value: st.Path()},
		{Key: "real data", Value: campaign.RealProvenance()},
		{Key: "Fig. 9 closed loop", Value: fmt.Sprintf("%d cities × 2 directions × arms %v, %d seeds × %v", len(f9.Closed)/2,
			paper003.ClosedArms, f9.Closed[0].Plan.Seeds, f9.Closed[0].Plan.Duration)}}, f9)
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

// reproduceFig9 runs seed 003's Fig. 9 beside the campaign: the shipped
// model (lmbbr's embedded one) scored by the surrogates on the
// campaign's Tokyo BBR flows, and its closed-loop runs (in the same
// store, so resumable). --runs N, when given, sets the closed-loop seeds
// too (at least 2, for a confidence interval); --duration their length.
func reproduceFig9(cmd *cobra.Command, f *reproduceFlags, st *campaign.Store, sim []paper003.Flow) (*paper003.Fig9, error) {
	m := lmbbr.DefaultModel()
	sur, err := paper003.EvaluateSurrogate(m, sim)
	if err != nil {
		return nil, err
	}
	plans := paper003.ClosedPlans(f.full, f.duration)
	if f.runs > 0 {
		for i := range plans {
			plans[i].Seeds = max(f.runs, 2)
		}
	}
	runs, err := paper003.ClosedRuns(plans)
	if err != nil {
		return nil, usageError{err}
	}
	sum, err := executeCampaign(cmd, runs, st, &f.exec)
	fmt.Fprintf(cmd.OutOrStdout(), "Fig. 9 closed loop: %d runs: %d stored before, %d ran, %d failed in %v\n",
		sum.Total, sum.Skipped, sum.Ran, sum.Failed, sum.Wall.Round(time.Millisecond))
	if err != nil {
		return nil, err
	}
	closed, err := paper003.ClosedLoop(cmd.Context(), st, plans)
	if err != nil {
		return nil, err
	}
	return &paper003.Fig9{Model: paper003.ShippedModel, Surrogate: sur, Closed: closed}, nil
}
