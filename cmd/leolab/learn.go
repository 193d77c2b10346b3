package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/leolab/leolab/analyze"
	"github.com/leolab/leolab/cc/lmbbr"
	"github.com/leolab/leolab/learn"
	"github.com/spf13/cobra"
)

func newLearnCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "learn",
		Short: "Learning pipeline of seed 003: experience pool and policy for BBR's pacing gain",
		Long: `The seed-003 learned controller for BBR's pacing gain: from iperf3 logs, the
dataset's CSV traces and leolab results, an experience pool of per-interval
states, detected ProbeBW phases, hybrid utilization, the phase-constrained
expert gain and its reward (pool); counterfactual labels measured by replaying
each gain in the simulator (label); and the policy that the lmbbr controller
runs, trained on such pools (train); and the learned controllers of seed 002,
retrained here in the simulator (train-cca).`,
		Example: `  leolab learn pool ../shared/data/starlink-iperf3/traces
  leolab learn pool r.json --all --jsonl --out pool.jsonl
  leolab learn train pool.jsonl --holdout tokyo --out model.json
  leolab learn label --seeds 2 --out cf.jsonl
  leolab learn train-cca orca --out orca-actor.json
  leolab learn train-cca astraea --out astraea-actor.json
  leolab learn train-cca sage --out sage-policy.json`,
	}
	c.AddCommand(newLearnPoolCmd(), newLearnLabelCmd(), newLearnTrainCmd(), newLearnEvalCmd(), newLearnTrainCCACmd())
	return c
}

type learnPoolFlags struct {
	all   bool
	jsonl bool
	out   string
}

func newLearnPoolCmd() *cobra.Command {
	var f learnPoolFlags
	c := &cobra.Command{
		Use:   "pool PATH...",
		Short: "Build the experience pool (state, phase, expert gain, reward) from flows",
		Long: `Read iperf3 JSON logs, the dataset's per-second CSV traces, leolab result JSON,
or directories of them (as analyze does), and write one row per interval of
every BBR flow (bbr, bbr1, bbr2, bbr3; --all for every flow): the state
(t, throughput, retransmits, cwnd, rwnd, RTT, RTTvar, with location and stream),
the detected ProbeBW phase (UP, DOWN, CRUISE), the hybrid utilization, the
expert pacing gain a* = argmax of the reward over the phase's gains with its
reward (paper 003 eqs. 14–17), and the eq. 2–3 phase-nearest gain with its
reward. CSV with a header row by default, JSON lines with --jsonl. rwnd is 0:
the readers do not keep the receiver window.`,
		Example: `  leolab learn pool ../shared/data/starlink-iperf3/traces
  leolab learn pool logs/ --jsonl --out pool.jsonl
  leolab sim -f examples/dumbbell-cubic.yaml --json > r.json && leolab learn pool r.json --all`,
		RunE: func(cmd *cobra.Command, args []string) error { return runLearnPool(cmd, args, &f) },
	}
	c.Flags().BoolVar(&f.all, "all", false, "pool every flow, not only BBR ones")
	c.Flags().BoolVar(&f.jsonl, "jsonl", false, "write JSON lines instead of CSV")
	c.Flags().StringVar(&f.out, "out", "", "write to `FILE` instead of stdout")
	return c
}

// bbrCCAs are the CCA names pooled without --all: the paper learns BBR's
// gain, and leolab names BBRv3 both bbr and bbr3.
var bbrCCAs = map[string]bool{"bbr": true, "bbr1": true, "bbr2": true, "bbr3": true}

func runLearnPool(cmd *cobra.Command, args []string, f *learnPoolFlags) error {
	if len(args) == 0 {
		return badInput("learn pool: no PATH given (iperf3 JSON, leolab result JSON, CSV traces or directories)")
	}
	for _, p := range args {
		if _, err := os.Stat(p); err != nil {
			return badInput("learn pool: %v", err)
		}
	}
	in, errs := analyze.Load(args)
	if len(errs) > 0 {
		return badInput("learn pool: %v", errs[0]) // the readers' errors name the file
	}
	for _, w := range in.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "leolab: learn pool: warning: "+w)
	}
	pool := learn.NewPool()
	for _, fl := range in.Flows {
		if fl.SummaryOnly || (!f.all && !bbrCCAs[fl.Data.CCA]) {
			continue
		}
		if err := pool.AddFlow(learnSource(fl), fl.Data); err != nil {
			return badInput("learn pool: %s: %v", fl.File, err)
		}
	}
	if len(pool.Rows) == 0 {
		what := "BBR flows (bbr, bbr1, bbr2, bbr3; --all for any CCA)"
		if f.all {
			what = "flows with intervals"
		}
		return badInput("learn pool: no %s in %s", what, strings.Join(args, " "))
	}
	var buf bytes.Buffer
	write := pool.WriteCSV
	if f.jsonl {
		write = pool.WriteJSONL
	}
	if err := write(&buf); err != nil {
		return err
	}
	return writeLearnOutput(cmd.OutOrStdout(), f.out, buf.Bytes())
}

// learnSource names a flow's location (server city) and stream (direction
// and scenario kind, the dataset's directory groups).
func learnSource(fl analyze.Flow) learn.Source {
	var parts []string
	for _, s := range []string{fl.Meta.Direction, fl.Meta.Kind} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return learn.Source{Location: fl.Meta.City, Stream: strings.Join(parts, "-"), Flow: fl.Label}
}

// writeLearnOutput writes data to path, or to out when path is empty.
func writeLearnOutput(out io.Writer, path string, data []byte) error {
	if path == "" {
		_, err := out.Write(data)
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("learn pool: %w", err)
	}
	return nil
}

type learnTrainFlags struct {
	labels   string
	features string
	target   string
	holdout  string
	out      string
	iters    int
	rate     float64
	l2       float64
	seq      learnSeqFlags
}

func newLearnTrainCmd() *cobra.Command {
	var f learnTrainFlags
	d := learn.DefaultTrainConfig()
	c := &cobra.Command{
		Use:   "train POOL.jsonl...",
		Short: "Train the lmbbr pacing-gain policy on experience pools",
		Long: `Read experience pools written by learn pool --jsonl, compute every UP and DOWN
row's features as the lmbbr controller does online (rate over its 5 s running
max, RTT over its 10 s running min, loss rate), fit one multinomial logistic
regression per phase to the eq. 3 gains (deterministic full-batch gradient
descent from zero weights, L2 penalty), and write the model JSON that lmbbr
embeds (cc/lmbbr/model.json). Rows whose location is --holdout are left out
of training and evaluated apart. Accuracy per phase, against always answering
the most frequent gain, goes to stderr. --labels counterfactual fits, instead
of the eq. 3 gains, the replay-measured best gains of the rows learn label
labelled (the other rows only give the features their history).
--features all fits the same regression over every numeric state field of
the pool (t, throughput, retransmits, cwnd, rwnd, RTT, RTT variance, the 4
lmbbr features' rate over max bw, RTT over min RTT and loss, the downlink
flag), standardised by the training rows; its JSON is for measurement,
lmbbr cannot load it.

--target curve (with --labels counterfactual) regresses, instead of the
argmax, every feasible gain's measured reward (gain_rewards, centred on
the row's mean over the gains) on the standardised state of --features,
one ridge regression per phase, and answers the predicted curve's argmax;
the ridge penalty (least regret) and the softmax temperature of its
cross-entropy (least cross-entropy) are chosen by leaving one training
city out, --l2 fixes the penalty. It reports, next to accuracy and
cross-entropy, the mean regret (best gain's reward minus the answer's)
against always answering the training majority; its JSON is for
measurement, lmbbr cannot load it.

The embedded model is trained on simulated BBR downlink runs (120 s, seeds
1-4) of london, mumbai, ohio, saopaulo and sydney with tokyo held out;
go test ./learn -run TestDefaultModel -update rebuilds it.

--model seq trains seed 003's sequence policy instead (package learn/seq):
a per-feature state encoder, a causal transformer over the last --window
steps conditioned on the return-to-go, and a head over the 11 gains masked
to the phase's; on gomlx's pure-Go backend. Its backbone is our own small
transformer (--width, --layers, --heads) or a GPT-2 checkpoint from a
local safetensors file (--backbone gpt2 --gpt2 FILE), frozen, with LoRA
adapters (--lora-rank, --lora-alpha, --lora-targets). Training is
deterministic for --seed; with --checkpoint it resumes after a kill or
Ctrl-C. --rate defaults to Adam's 0.001 with --model seq. With --labels
counterfactual it fits and scores only the replayed rows; the others stay
in the windows as history. Progress per
epoch goes to stderr, the curve to --curves, the model (safetensors) to
--out.`,
		Example: `  leolab learn train pool.jsonl --out model.json
  leolab learn train pool.jsonl --holdout tokyo --out model.json
  leolab learn train cf-train.jsonl cf-tokyo.jsonl --labels counterfactual --features all --holdout tokyo --out state.json
  leolab learn train cf-train.jsonl cf-tokyo.jsonl --labels counterfactual --target curve --holdout tokyo --out curve.json
  leolab learn train pool.jsonl --model seq --holdout tokyo --out seq.safetensors --curves curves.csv --checkpoint run.ckpt
  leolab learn train pool.jsonl --model seq --backbone gpt2 --gpt2 gpt2/model.safetensors --heads 12 --lora-rank 8 --out seq.safetensors`,
		RunE: func(cmd *cobra.Command, args []string) error { return runLearnTrain(cmd, args, &f) },
	}
	c.Flags().StringVar(&f.labels, "labels", "surrogate", "labels to fit: surrogate (every UP and DOWN row's eq. 3 gain) or counterfactual (the replay-measured argmax of the rows learn label labelled)")
	c.Flags().StringVar(&f.features, "features", learn.FeaturesLMBBR, "linear model inputs: lmbbr (the controller's 4 features; the model lmbbr loads) or all (every numeric state field of the pool, standardised; a JSON lmbbr cannot load, to measure what the wider state buys)")
	c.Flags().StringVar(&f.target, "target", learn.TargetGain, "what the linear model fits: gain (classify each row's label) or curve (--labels counterfactual only: ridge-regress every feasible gain's measured reward on the standardised state and answer the predicted curve's argmax; penalty and softmax temperature chosen by leaving one training city out)")
	c.Flags().StringVar(&f.holdout, "holdout", "", "leave rows of this `LOCATION` out of training and evaluate on them")
	c.Flags().StringVar(&f.out, "out", "", "write the model to `FILE` instead of stdout")
	c.Flags().IntVar(&f.iters, "iterations", d.Iterations, "gradient-descent steps per phase")
	c.Flags().Float64Var(&f.rate, "rate", d.Rate, "gradient step size")
	c.Flags().Float64Var(&f.l2, "l2", d.L2, "L2 penalty on the non-bias weights")
	addLearnSeqFlags(c, &f.seq)
	return c
}

func runLearnTrain(cmd *cobra.Command, args []string, f *learnTrainFlags) error {
	if len(args) == 0 {
		return badInput("learn train: no POOL.jsonl given (write one with learn pool --jsonl)")
	}
	var rows []learn.Row
	for _, p := range args {
		fh, err := os.Open(p)
		if err != nil {
			return badInput("learn train: %v", err)
		}
		r, err := learn.ReadJSONL(fh)
		fh.Close()
		if err != nil {
			return badInput("learn train: %s: %v", p, err)
		}
		rows = append(rows, r...)
	}
	labels, err := learn.ParseLabelSource(f.labels)
	if err != nil {
		return badInput("learn train: --labels: %v", err)
	}
	features, err := learn.ParseFeatureSet(f.features)
	if err != nil {
		return badInput("learn train: --features: %v", err)
	}
	target, err := learn.ParseTarget(f.target)
	if err != nil {
		return badInput("learn train: --target: %v", err)
	}
	if target == learn.TargetCurve {
		if f.seq.model != "linear" {
			return badInput("learn train: --target curve is for --model linear (got --model %s)", f.seq.model)
		}
		if labels != learn.LabelCounterfactual {
			return badInput("learn train: --target curve needs --labels counterfactual (only replayed rows carry gain_rewards, the curve it fits)")
		}
		return runLearnTrainCurve(cmd, rows, args, f, features)
	}
	switch f.seq.model {
	case "seq":
		if features != learn.FeaturesLMBBR {
			return badInput("learn train: --features %s is for --model linear (the sequence policy has its own state encoder)", features)
		}
		return runLearnTrainSeq(cmd, rows, args, labels, f.holdout, f.out, f.rate, &f.seq)
	case "linear":
	default:
		return badInput("learn train: --model %q (allowed: linear, seq)", f.seq.model)
	}
	ex, what := learn.Examples(rows), "eq. 3 mapped gain (paper 003)"
	if labels == learn.LabelCounterfactual {
		ex, what = learn.CounterfactualExamples(rows), "counterfactual argmax of eq. 16 on simulator replays (leolab learn label)"
		if len(ex) == 0 {
			return badInput("learn train: --labels counterfactual: no row of %s has label_source counterfactual (write the pool with learn label)", strings.Join(args, " "))
		}
	}
	train, held := ex, []learn.Example(nil)
	if f.holdout != "" {
		train, held = learn.SplitLocation(ex, strings.ToLower(f.holdout))
		if len(held) == 0 {
			return badInput("learn train: no UP or DOWN rows at --holdout %s", f.holdout)
		}
	}
	cfg := learn.TrainConfig{Iterations: f.iters, Rate: f.rate, L2: f.l2}
	if features == learn.FeaturesAll {
		return runLearnTrainState(cmd, rows, args, f, what, train, held, cfg)
	}
	m, err := learn.Train(train, cfg)
	if err != nil {
		return badInput("%v", err)
	}
	trEv := learn.Evaluate(m, train)
	locs := map[string]bool{}
	var names []string
	for _, e := range train {
		if !locs[e.Source.Location] {
			locs[e.Source.Location] = true
			names = append(names, e.Source.Location)
		}
	}
	info := learn.TrainingInfo{Label: what, Config: cfg, Locations: names, Holdout: f.holdout,
		Train: map[string]int{"UP": trEv[0].N, "DOWN": trEv[1].N}, TrainAcc: learn.EvalJSON(trEv),
		Regen: "leolab learn train " + strings.Join(args, " ")}
	if labels != learn.LabelSurrogate {
		info.Regen += " --labels " + labels.String()
	}
	report := func(set string, evs []learn.PhaseEval) {
		for _, e := range evs {
			fmt.Fprintf(cmd.ErrOrStderr(), "leolab: learn train: %s %v: %d rows, accuracy %.3f (majority %.3f), mean |gain error| %.4f\n",
				set, e.Phase, e.N, e.Accuracy(), e.Majority, e.MAE)
		}
	}
	report("train", trEv)
	if len(held) > 0 {
		heEv := learn.Evaluate(m, held)
		info.HeldAcc = learn.EvalJSON(heEv)
		report("held-out "+f.holdout, heEv)
		learn.SetPrior(heEv, train, held)
		for _, e := range heEv {
			fmt.Fprintf(cmd.ErrOrStderr(), "leolab: learn train: held-out %s %v: cross-entropy %.4f nats (training label prior %.4f); confusion (label × predicted, gains %v) %v\n",
				f.holdout, e.Phase, e.CE, e.PriorCE, learn.Feasible(e.Phase), e.Confusion)
		}
	}
	data, err := learn.MarshalModel(m, info)
	if err != nil {
		return err
	}
	if _, err := lmbbr.ParseModel(data); err != nil {
		return fmt.Errorf("leolab BUG: learn train wrote an invalid model: %w", err)
	}
	return writeLearnOutput(cmd.OutOrStdout(), f.out, data)
}
