package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/spf13/cobra"
)

type reproduceFlags struct {
	quick, full bool
	out         string
	paper       string // which seed's figures: 000 (default), 001, 003
	engine      string // where the runs execute (enginesByPaper)
	p000        paper000Flags
	exec        execFlags
	// Restrictions for tests and partial studies (hidden).
	ccas, cities, directions, kinds []string
	duration                        time.Duration
	runs                            int
	figures                         []string // --paper 002: only these figures
}

func newReproduceCmd() *cobra.Command {
	var f reproduceFlags
	c := &cobra.Command{
		Use:   "reproduce [--paper 000|001|002|003] [--quick|--full] [--out DIR]",
		Short: "Run the seed-000 Starlink study on the simulator and compare it with the real measurements",
		Long: fmt.Sprintf(`Runs the seed-000 campaign (nine CCAs × six cities × downlink/uplink ×
dedicated/concurrent) on the simulated Starlink path and writes DIR/report.html
with simulated and real per-CCA results side by side (throughput, retransmissions
per GB, RTT inflation), DIR/results.csv and DIR/flows.csv. Finished runs are kept
in DIR/store.db: run the command again to resume an interrupted campaign.

  --quick (default)  %d run × %v per cell: about 10 minutes on 2 cores
  --full             %d runs × %v per cell, as in the paper

CCAs not implemented yet are skipped with a warning.

--paper picks the seed whose figures are reproduced: 000 (default) adds to
the campaign's Figs. 9–10 the reaction windows (Fig. 12), the M/G/1 queue
(Fig. 13), the per-CCA fairness scores (Fig. 14), two BBRv3 flows simultaneous
and staggered by 30 s over several seeds (Fig. 15), the fluid model fitted to
a trace (Fig. 11) and the 15 s slot profile, simulated next to real. 001 runs
seed 001's NetScalpel procedures through the prober; with --engine emu the
link procedures run live through the emulator (root; quick study, default
profile, about 10 minutes; the slow-start and recovery studies stay on sim),
and it exits 1 when a quantity is outside its tolerance. 002 runs seed 002's
campaigns (LeoEM path, bandwidth and RTT steps, RTT asymmetry, AQMs) and judges
its five findings with 95 %% confidence intervals; with --engine emu its
LeoEM-path and AQM figures run live with kernel cubic and bbr (root; 3 runs
per point, about 20 minutes) and the report says which figures stay on sim. 003 runs seed 003's four
CCAs (bbr, cubic, vegas, hybla) and draws its Figs. 2–5: per city, box plots
of throughput, retransmissions, cwnd, RTT and RTT variance, simulated
per-second boxes next to the real per-run ones (quick: 2 runs per cell, full:
5), and its Fig. 9: the shipped gain model's surrogate evaluation on held-out
Tokyo beside its closed-loop runs (bbr, linear, const105 on Tokyo and Sydney,
both directions; quick 5 seeds, full 10), into DIR (default
reproduce-003-quick).`, campaign.QuickRuns, campaign.QuickDuration,
			campaign.FullRuns, campaign.FullDuration),
		Example: `  leolab reproduce
  leolab reproduce --paper 000 --out seed000
  leolab reproduce --paper 001 --engine emu --out seed001-live
  leolab reproduce --paper 002 --out seed002
  leolab reproduce --paper 002 --engine emu --out seed002-live
  leolab reproduce --paper 003 --out seed003
  leolab reproduce --full --out seed000-full
  leolab reproduce --full --nats nats://10.0.0.1:4222`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return dispatchReproduce(cmd, &f) },
	}
	fl := c.Flags()
	fl.BoolVar(&f.quick, "quick", false, "the quick campaign (default)")
	fl.BoolVar(&f.full, "full", false, "the paper's campaign (10 runs × 300 s)")
	fl.StringVar(&f.out, "out", "", "output directory (default: reproduce-quick or reproduce-full)")
	fl.StringVar(&f.paper, "paper", paperSeed000, "the seed whose figures to reproduce: 000, 001, 002 or 003")
	fl.StringVar(&f.engine, "engine", campaign.DefaultEngine, "where the runs execute: sim (every paper), emu (--paper 001 and 002: live through the emulator, root)")
	f.exec.register(c)
	f.p000.register(c)
	fl.StringSliceVar(&f.ccas, "ccas", nil, "only these CCAs (dataset names)")
	fl.StringSliceVar(&f.cities, "cities", nil, "only these cities")
	fl.StringSliceVar(&f.directions, "directions", nil, "only these directions")
	fl.StringSliceVar(&f.kinds, "kinds", nil, "only these kinds")
	fl.DurationVar(&f.duration, "duration", 0, "override the duration of each run")
	fl.IntVar(&f.runs, "runs", 0, "override the number of runs per cell")
	fl.StringSliceVar(&f.figures, "figures", nil, "--paper 002: only these figures (fig1, fig5, ...)")
	for _, n := range []string{"ccas", "cities", "directions", "kinds", "duration", "runs", "figures"} {
		fl.MarkHidden(n)
	}
	return c
}

// Values of --paper.
const (
	paperSeed000 = "000"
	paperSeed001 = "001"
	paperSeed002 = "002"
	paperSeed003 = "003"
)

// dispatchReproduce runs the study of the seed --paper names.
func dispatchReproduce(cmd *cobra.Command, f *reproduceFlags) error {
	if err := f.checkEngine(); err != nil {
		return err
	}
	switch f.paper {
	case paperSeed000:
		return runReproduce(cmd, f)
	case paperSeed001:
		return runReproduce001(cmd, f)
	case paperSeed002:
		return runReproduce002(cmd, f)
	case paperSeed003:
		return runReproduce003(cmd, f)
	}
	return badInput("reproduce: --paper %q: allowed values are 000, 001, 002 and 003", f.paper)
}

func runReproduce(cmd *cobra.Command, f *reproduceFlags) error {
	if f.quick && f.full {
		return badInput("reproduce: --quick and --full exclude each other")
	}
	if len(f.figures) > 0 {
		return badInput("reproduce: --figures applies to --paper 002 only")
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
	runs, st, err := runCampaignIn(cmd, f, c, "reproduce")
	if err != nil {
		return err
	}
	defer st.Close()
	extra, err := reproduce000Sections(cmd, f, runs, st)
	if err != nil {
		return err
	}
	return writeReport(cmd, reportJob{c: c, runs: runs, st: st, dir: f.out, notes: warnings, extra: extra,
		title: "leolab reproduce: seed 000 on simulated Starlink, side by side with the real measurements"})
}

// runCampaignIn expands c and runs it into f.out (defaultOut's by PREFIX) with its store there unless --store names one, printing the
// summary. The caller closes the store.
func runCampaignIn(cmd *cobra.Command, f *reproduceFlags, c *campaign.Campaign, prefix string) ([]campaign.Run, *campaign.Store, error) {
	runs, err := c.Expand()
	if err != nil {
		return nil, nil, usageError{err}
	}
	f.defaultOut(prefix)
	if f.exec.store == "" {
		f.exec.store = filepath.Join(f.out, "store.db")
	}
	if err := mkdirAll(f.out); err != nil {
		return nil, nil, err
	}
	st, err := openStore(f.exec.store, "", false)
	if err != nil {
		return nil, nil, err
	}
	sum, err := executeCampaign(cmd, runs, st, &f.exec)
	printSummary(cmd.OutOrStdout(), c, st, sum)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return runs, st, nil
}

// defaultOut names the output directory when --out gives none:
// PREFIX-emu for a study run live, else PREFIX-full or PREFIX-quick.
func (f *reproduceFlags) defaultOut(prefix string) {
	switch {
	case f.out != "":
	case f.engine == campaign.EngineEmu:
		f.out = prefix + "-emu"
	case f.full:
		f.out = prefix + "-full"
	default:
		f.out = prefix + "-quick"
	}
}

// enginesByPaper lists, per --paper, the engines its study runs on.
var enginesByPaper = map[string][]string{
	paperSeed000: {campaign.DefaultEngine},
	paperSeed001: {campaign.DefaultEngine, campaign.EngineEmu},
	paperSeed002: {campaign.DefaultEngine, campaign.EngineEmu},
	paperSeed003: {campaign.DefaultEngine},
}

// checkEngine rejects an --engine the chosen paper cannot run on.
func (f *reproduceFlags) checkEngine() error {
	allowed, ok := enginesByPaper[f.paper]
	if !ok {
		return nil // dispatchReproduce names the allowed papers
	}
	if slices.Contains(allowed, f.engine) {
		return nil
	}
	return badInput("reproduce --paper %s: --engine %q: allowed values are %s", f.paper, f.engine, strings.Join(allowed, ", "))
}
