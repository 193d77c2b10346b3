package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/emu/netns"
	"github.com/leolab/leolab/paper002"
	"github.com/leolab/leolab/report"
	"github.com/leolab/leolab/result"
	"github.com/spf13/cobra"
)

// runReproduce002 is `leolab reproduce --paper 002`: seed 002's campaigns
// (package paper002) run into one store, locally or on NATS workers, and
// read back into DIR/report.html with a section per figure and the verdict
// on each of the paper's five findings. With --engine emu the figures the
// emulator runs go live with kernel TCP (paper002/live.go) and the report
// says which stayed on sim and why.
func runReproduce002(cmd *cobra.Command, f *reproduceFlags) error {
	if f.quick && f.full {
		return badInput("reproduce: --quick and --full exclude each other")
	}
	live := f.engine == campaign.EngineEmu
	if len(f.cities)+len(f.directions)+len(f.kinds) > 0 {
		return badInput("reproduce --paper 002: --cities, --directions and --kinds apply to --paper 000 only")
	}
	if err := f.exec.check(cmd); err != nil {
		return err
	}
	f.defaultOut("reproduce-002")
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
	parts, err := paper002.Plan(paper002.Options{Full: f.full, Engine: f.engine, Dir: dir, Runs: f.runs, Duration: f.duration,
		Figures: f.figures, CCAs: f.ccas})
	if err != nil {
		return usageError{err}
	}
	if live {
		if err := netns.Available(); err != nil {
			return fmt.Errorf("reproduce --paper 002 --engine emu: %w", err)
		}
		fmt.Fprintln(cmd.ErrOrStderr(), "leolab: --engine emu: "+paper002.LiveNote(parts))
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
	if live {
		if d.Probe, err = runPathProbe(cmd, parts); err != nil {
			return err
		}
		if d.Twin, d.TwinParts, err = runSimTwins(cmd, parts, st, &f.exec); err != nil {
			return err
		}
	}
	size := "--quick"
	if f.full {
		size = "--full"
	}
	if live {
		size += " --engine emu"
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
	if live {
		return liveVerdict002(out, d, parts)
	}
	return nil
}

// runPathProbe runs the live study's probe over the LeoEM path (not
// stored: the store keeps no probe packets), nil when there is none.
func runPathProbe(cmd *cobra.Command, parts []*paper002.Part) (*result.Result, error) {
	r, ok, err := paper002.PathProbe(parts)
	if err != nil || !ok {
		return nil, err
	}
	fmt.Fprintln(cmd.ErrOrStderr(), "leolab: probing the LeoEM path live (a 1 Mbit/s CBR stream, one-way delay per second against the path file)")
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	res, err := campaign.Emu{}.Run(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("reproduce --paper 002: path probe: %w", err)
	}
	return res, nil
}

// runSimTwins runs the live parts' scenarios on the simulator into the
// same store (their ids differ by engine) and reads them back.
func runSimTwins(cmd *cobra.Command, parts []*paper002.Part, st *campaign.Store, ex *execFlags) (*paper002.Data, []*paper002.Part, error) {
	twins, err := paper002.SimTwins(parts)
	if err != nil {
		return nil, nil, err
	}
	var runs []campaign.Run
	for _, p := range twins {
		runs = append(runs, p.Runs...)
	}
	sum, err := executeCampaign(cmd, runs, st, ex)
	fmt.Fprintf(cmd.OutOrStdout(), "seed 002, the live runs' simulated twins: %d runs: %d stored before, %d ran, %d failed in %v\n",
		sum.Total, sum.Skipped, sum.Ran, sum.Failed, sum.Wall.Round(1e6))
	if err != nil {
		return nil, nil, err
	}
	td, err := paper002.Load(context.Background(), st, twins)
	if err != nil {
		return nil, nil, err
	}
	return td, twins, nil
}

// liveVerdict002 prints the live runs' physical checks outside their
// bounds; one outside with the host quiet fails the command (exit 1), as
// a quantity outside its tolerance fails --paper 001.
func liveVerdict002(out io.Writer, d *paper002.Data, parts []*paper002.Part) error {
	checks, err := d.LiveChecks(parts)
	if err != nil {
		return err
	}
	quiet := 0
	for _, c := range checks {
		if !c.OK() && !c.Stalled {
			quiet++
		}
	}
	fails := paper002.LiveFailures(checks)
	for _, l := range fails {
		fmt.Fprintln(out, "outside its bound: "+l)
	}
	fmt.Fprintf(out, "live checks: %d, %d outside their bound (%d with the host quiet)\n", len(checks), len(fails), quiet)
	if quiet > 0 {
		return fmt.Errorf("reproduce --paper 002 --engine emu: %d live checks outside their bound with the host quiet (the report lists them)", quiet)
	}
	return nil
}
