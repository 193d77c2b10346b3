package main

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/leolab/leolab/learn"
	"github.com/leolab/leolab/learn/counterfactual"
	"github.com/spf13/cobra"
)

type learnLabelFlags struct {
	cities    string
	direction string
	seeds     int
	duration  time.Duration
	opt       counterfactual.Options
	out       string
}

func newLearnLabelCmd() *cobra.Command {
	var f learnLabelFlags
	c := &cobra.Command{
		Use:   "label",
		Short: "Build an experience pool with counterfactual labels: each gain replayed in the simulator",
		Long: `Simulate one bulk BBRv3 flow over the calibrated Starlink profile of each of
--cities, seeds 1..--seeds, and label its ProbeBW decisions by what each gain
really does: the simulator is deterministic, so every sampled UP or DOWN entry
(every --every-th cycle) is replayed once per feasible gain of its phase
(paper 003 eqs. 14–15), the gain held for that phase visit and stock BBR to the
end of the cycle, and eq. 16's reward scored on the measured throughput,
retransmissions and queuing delay of the window. The label is the argmax; the
row also keeps every gain's reward (gain_rewards) and label_source
"counterfactual". The row labelled is the last interval that ended before the
decision (what the controller knew); the other rows keep their surrogate
labels and serve as the traces' history. --replays K scores each gain as the
mean reward of K replays with the held gain dithered evenly within ±0.5 %:
a 0.1 % change of the pacing rate can move one cycle's reward by more than
the gap between the best and second-best gain (packets cross the link's frame
boundaries), and the mean over the dither is what a gain can expect; --noise
measures that, replaying each best gain at g·(1+1e-3). Writes the pool as JSON
lines for learn train --labels counterfactual; progress and, per phase, how often the
label differs from the surrogate's (eq. 17), eq. 3's gain and the majority
go to stderr.

Tokyo is held out of training: label it only as an evaluation pool and train
with --holdout tokyo, e.g.
  leolab learn train cf-train.jsonl cf-tokyo.jsonl --labels counterfactual --holdout tokyo --out model.json`,
		Example: `  leolab learn label --seeds 2 --duration 60s --out cf-train.jsonl
  leolab learn label --cities tokyo --seeds 2 --duration 60s --every 1 --out cf-tokyo.jsonl
  leolab learn label --cities sydney,ohio --seeds 1 --duration 30s --workers 1`,
		RunE: func(cmd *cobra.Command, args []string) error { return runLearnLabel(cmd, args, &f) },
	}
	fl := c.Flags()
	fl.StringVar(&f.cities, "cities", strings.Join(counterfactual.TrainingCities(), ","), "comma-separated server cities of the Starlink profile (tokyo only for an evaluation pool)")
	fl.StringVar(&f.direction, "direction", "downlink", "downlink or uplink")
	fl.IntVar(&f.seeds, "seeds", 2, "seeds 1..N per city")
	fl.DurationVar(&f.duration, "duration", 60*time.Second, "length of each simulated run")
	fl.IntVar(&f.opt.Every, "every", 2, "sample a decision every K-th ProbeBW cycle (UP at cycles 0, K…, DOWN at K/2, K/2+K…)")
	fl.IntVar(&f.opt.Workers, "workers", 2, "simulations at once")
	fl.IntVar(&f.opt.Replays, "replays", 1, "score each gain as the mean reward of K replays with the gain dithered within ±0.5 % (1: the gain alone)")
	fl.BoolVar(&f.opt.Noise, "noise", false, "also replay each best gain at g·(1+1e-3) and report, per phase, the median margin (best − second-best reward) against that label noise")
	fl.DurationVar(&f.opt.Horizon, "horizon", counterfactual.DefaultHorizon, "longest replay past a decision")
	fl.StringVar(&f.out, "out", "", "write the pool to `FILE` instead of stdout")
	return c
}

func runLearnLabel(cmd *cobra.Command, args []string, f *learnLabelFlags) error {
	if len(args) > 0 {
		return badInput("learn label: unexpected arguments %q (the runs are --cities and --seeds)", args)
	}
	if f.seeds < 1 || f.seeds > 1000 {
		return badInput("learn label: --seeds %d is out of range (allowed: 1..1000)", f.seeds)
	}
	if f.opt.Replays < 1 {
		return badInput("learn label: --replays %d is out of range (allowed: 1..%d)", f.opt.Replays, counterfactual.MaxReplays)
	}
	if err := f.opt.Validate(); err != nil {
		return badInput("learn label: %v", err)
	}
	var srcs []counterfactual.Source
	for _, city := range strings.Split(f.cities, ",") {
		for seed := 1; seed <= f.seeds; seed++ {
			s, err := counterfactual.Starlink(strings.TrimSpace(city), f.direction, seed, f.duration)
			if err != nil {
				return badInput("learn label: %v", err)
			}
			srcs = append(srcs, s)
		}
	}
	stderr := cmd.ErrOrStderr()
	last := time.Duration(-1)
	start := time.Now()
	f.opt.Progress = func(done, total int) {
		if el := time.Since(start); done == total || el-last >= 10*time.Second {
			last = el
			fmt.Fprintf(stderr, "leolab: learn label: %d/%d simulations (%d runs, then replays), %.0fs\n", done, total, len(srcs), el.Seconds())
		}
	}
	ls, err := counterfactual.Label(srcs, f.opt)
	if err != nil {
		return fmt.Errorf("learn label: %w", err)
	}
	nd := 0
	for _, l := range ls {
		nd += len(l.Decisions) + l.Uninformative
	}
	if nd > 0 {
		fmt.Fprintf(stderr, "leolab: learn label: %d decisions in %.0fs (%.2fs of simulation per decision with the base runs, --workers %d)\n",
			nd, time.Since(start).Seconds(), time.Since(start).Seconds()*float64(f.opt.Workers)/float64(nd), f.opt.Workers)
	}
	pool := learn.NewPool()
	same := 0
	for _, l := range ls {
		pool.Rows = append(pool.Rows, l.Rows...)
		same += l.Uninformative
	}
	if same > 0 {
		fmt.Fprintf(stderr, "leolab: learn label: %d decisions left unlabelled: every gain measured the same reward (the phase ended before its gain paced anything)\n", same)
	}
	for _, s := range counterfactual.Summarize(ls) {
		if s.N == 0 {
			fmt.Fprintf(stderr, "leolab: learn label: %v: no decisions\n", s.Phase)
			continue
		}
		fmt.Fprintf(stderr, "leolab: learn label: %v: %d labels %v over gains %v (entropy %.2f bits); differ from surrogate eq. 17 %.1f%%, eq. 3 %.1f%%, majority %g %.1f%%\n",
			s.Phase, s.N, s.Counts, learn.Feasible(s.Phase), s.Entropy, pct(s.DiffSurrogate, s.N), pct(s.DiffMapped, s.N), s.Majority, pct(s.DiffMajority, s.N))
		if f.opt.Noise {
			fmt.Fprintf(stderr, "leolab: learn label: %v: median margin %.4f, median noise %.4f, margin above noise in %d of %d (--replays %d)\n",
				s.Phase, s.Margin, s.Noise, s.AboveNoise, s.N, max(f.opt.Replays, 1))
		}
	}
	var buf bytes.Buffer
	if err := pool.WriteJSONL(&buf); err != nil {
		return err
	}
	return writeLearnOutput(cmd.OutOrStdout(), f.out, buf.Bytes())
}

func pct(n, of int) float64 { return 100 * float64(n) / float64(of) }
