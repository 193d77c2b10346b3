package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/spf13/cobra"
)

type reproduceFlags struct {
	quick, full bool
	out         string
	exec        execFlags
	// Restrictions for tests and partial studies (hidden).
	ccas, cities, directions, kinds []string
	duration                        time.Duration
	runs                            int
}

func newReproduceCmd() *cobra.Command {
	var f reproduceFlags
	c := &cobra.Command{
		Use:   "reproduce [--quick|--full] [--out DIR]",
		Short: "Run the seed-000 Starlink study on the simulator and compare it with the real measurements",
		Long: fmt.Sprintf(`Runs the seed-000 campaign (nine CCAs × six cities × downlink/uplink ×
dedicated/concurrent) on the simulated Starlink path and writes DIR/report.html
with simulated and real per-CCA results side by side (throughput, retransmissions
per GB, RTT inflation), DIR/results.csv and DIR/flows.csv. Finished runs are kept
in DIR/store.db: run the command again to resume an interrupted campaign.

  --quick (default)  %d run × %v per cell: about 10 minutes on 2 cores
  --full             %d runs × %v per cell, as in the paper

CCAs not implemented yet are skipped with a warning.`, campaign.QuickRuns, campaign.QuickDuration,
			campaign.FullRuns, campaign.FullDuration),
		Example: `  leolab reproduce
  leolab reproduce --full --out seed000-full
  leolab reproduce --full --nats nats://10.0.0.1:4222`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runReproduce(cmd, &f) },
	}
	fl := c.Flags()
	fl.BoolVar(&f.quick, "quick", false, "the quick campaign (default)")
	fl.BoolVar(&f.full, "full", false, "the paper's campaign (10 runs × 300 s)")
	fl.StringVar(&f.out, "out", "", "output directory (default: reproduce-quick or reproduce-full)")
	f.exec.register(c)
	fl.StringSliceVar(&f.ccas, "ccas", nil, "only these CCAs (dataset names)")
	fl.StringSliceVar(&f.cities, "cities", nil, "only these cities")
	fl.StringSliceVar(&f.directions, "directions", nil, "only these directions")
	fl.StringSliceVar(&f.kinds, "kinds", nil, "only these kinds")
	fl.DurationVar(&f.duration, "duration", 0, "override the duration of each run")
	fl.IntVar(&f.runs, "runs", 0, "override the number of runs per cell")
	for _, n := range []string{"ccas", "cities", "directions", "kinds", "duration", "runs"} {
		fl.MarkHidden(n)
	}
	return c
}

func runReproduce(cmd *cobra.Command, f *reproduceFlags) error {
	if f.quick && f.full {
		return badInput("reproduce: --quick and --full exclude each other")
	}
	if err := f.exec.check(cmd); err != nil {
		return err
	}
	c, warnings, err := campaign.Seed000(campaign.Seed000Options{Full: f.full, Runs: f.runs, Duration: f.duration,
		CCAs: f.ccas, Cities: f.cities, Directions: f.directions, Kinds: f.kinds})
	for _, w := range warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "leolab: warning: "+w)
	}
	if err != nil {
		return usageError{err}
	}
	runs, err := c.Expand()
	if err != nil {
		return usageError{err}
	}
	if f.out == "" {
		f.out = "reproduce-quick"
		if f.full {
			f.out = "reproduce-full"
		}
	}
	if f.exec.store == "" {
		f.exec.store = filepath.Join(f.out, "store.db")
	}
	if err := mkdirAll(f.out); err != nil {
		return err
	}
	st, err := openStore(f.exec.store, "", false)
	if err != nil {
		return err
	}
	defer st.Close()
	sum, err := executeCampaign(cmd, runs, st, &f.exec)
	printSummary(cmd.OutOrStdout(), c, st, sum)
	if err != nil {
		return err
	}
	return writeReport(cmd, reportJob{c: c, runs: runs, st: st, dir: f.out, notes: warnings,
		title: "leolab reproduce: seed 000 on simulated Starlink, side by side with the real measurements"})
}
