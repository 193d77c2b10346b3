package main

import (
	"bytes"
	gocontext "context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/learn/closedloop"
	"github.com/spf13/cobra"
)

type learnEvalFlags struct {
	plan    closedloop.Plan
	arms    string
	workers int
	csv     string
}

func newLearnEvalCmd() *cobra.Command {
	var f learnEvalFlags
	c := &cobra.Command{
		Use:   "eval",
		Short: "Closed-loop evaluation in sim: a learned gain model against BBRv3, the linear model and a constant 1.05",
		Long: `Run the same Starlink scenario (one bulk flow, the calibrated profile of --city,
--direction) in the simulator for every arm and seed 1..--seeds, and compare the
arms paired by seed (same seed: same path and reconfigurations):

  learned   lmbbr with --model FILE (a leolab learn train output: linear JSON or seq safetensors)
  bbr       stock BBRv3, the reference
  linear    lmbbr with its embedded softmax regression
  const105  BBRv3 with a constant UP pacing gain of 1.05 (the ablation: the model, or just a gentler probe?)

Per arm: throughput, retransmissions per GB and mean RTT, each a mean with its
95% confidence interval (Student's t over seeds), and its paired difference from
the --ref arm (bbr; const105 asks whether the model beats the ablation) with
that difference's 95% CI (marked * when it excludes 0). The table goes
to stdout, progress to stderr, every metric (also retransmits, RTT inflation) as
CSV to --csv. Tokyo is held out of every fit and of training: --city tokyo is
the held-out evaluation.`,
		Example: `  leolab learn eval --model seq.safetensors
  leolab learn eval --model seq.safetensors --city tokyo --seeds 10 --duration 60s --csv eval-tokyo.csv
  leolab learn eval --model seq.safetensors --city tokyo --ref const105
  leolab learn eval --arms bbr,linear,const105 --seeds 3 --duration 30s`,
		RunE: func(cmd *cobra.Command, args []string) error { return runLearnEval(cmd, args, &f) },
	}
	fl := c.Flags()
	fl.StringVar(&f.plan.Model, "model", "", "the learned arm's model `FILE`")
	fl.StringVar(&f.plan.City, "city", closedloop.DefaultCity, "server city of the Starlink profile (tokyo: the held-out evaluation)")
	fl.StringVar(&f.plan.Direction, "direction", closedloop.DefaultDirection, "downlink or uplink")
	fl.IntVar(&f.plan.Seeds, "seeds", closedloop.DefaultSeeds, "seeds 1..N per arm")
	fl.DurationVar(&f.plan.Duration, "duration", closedloop.DefaultDuration, "length of each simulated run")
	fl.StringVar(&f.arms, "arms", strings.Join(closedloop.ArmNames, ","), "comma-separated arms (the --ref arm required; learned needs --model)")
	fl.StringVar(&f.plan.Ref, "ref", closedloop.ArmBBR, "the arm the others are compared with, seed by seed (const105: does the model beat the ablation?)")
	fl.IntVar(&f.workers, "workers", 0, "runs at once (0: all cores)")
	fl.StringVar(&f.csv, "csv", "", "write every arm's metrics as CSV to `FILE`")
	return c
}

func runLearnEval(cmd *cobra.Command, args []string, f *learnEvalFlags) error {
	if len(args) > 0 {
		return badInput("learn eval: unexpected arguments %q (the model is --model FILE)", args)
	}
	f.plan.Arms = strings.Split(f.arms, ",")
	if !cmd.Flags().Changed("arms") && f.plan.Model == "" {
		return badInput("learn eval: --model FILE is needed for the learned arm (or choose --arms without it, e.g. bbr,linear,const105)")
	}
	if f.workers < 0 {
		return badInput("learn eval: --workers %d must be ≥ 0", f.workers)
	}
	runs, err := f.plan.Runs()
	if err != nil {
		return badInput("learn eval: %v", err)
	}
	ctx, stop := signal.NotifyContext(gocontext.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stderr := cmd.ErrOrStderr()
	samples, err := closedloop.Execute(ctx, runs, campaign.Pool{Workers: f.workers, Version: versionString()}, func(done, total int) {
		fmt.Fprintf(stderr, "\rleolab: learn eval: %d/%d runs", done, total)
		if done == total {
			fmt.Fprintln(stderr)
		}
	})
	if err != nil {
		return fmt.Errorf("learn eval: %w", err)
	}
	stats, err := closedloop.Summarize(samples, f.plan.Ref)
	if err != nil {
		return fmt.Errorf("learn eval: %w", err)
	}
	if f.csv != "" {
		var buf bytes.Buffer
		if err := closedloop.WriteCSV(&buf, &f.plan, stats); err != nil {
			return err
		}
		if err := os.WriteFile(f.csv, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("learn eval: %w", err)
		}
	}
	return closedloop.WriteTable(cmd.OutOrStdout(), &f.plan, stats)
}
