package main

import (
	gocontext "context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/leolab/leolab/learn"
	"github.com/leolab/leolab/learn/seq"
	"github.com/spf13/cobra"
)

// learnSeqFlags are learn train's flags for --model seq.
type learnSeqFlags struct {
	model      string
	cfg        seq.Config
	tc         seq.TrainConfig
	gpt2       string
	targets    string
	checkpoint string
	curves     string
}

func addLearnSeqFlags(c *cobra.Command, f *learnSeqFlags) {
	f.cfg, f.tc = seq.DefaultConfig(), seq.DefaultTrainConfig()
	fl := c.Flags()
	fl.StringVar(&f.model, "model", "linear", "`MODEL`: linear (per-phase softmax regression, the lmbbr baseline) or seq (seed 003's sequence policy)")
	fl.IntVar(&f.cfg.Window, "window", f.cfg.Window, "seq: steps w the policy attends to")
	fl.IntVar(&f.cfg.FeatureHidden, "feature-hidden", f.cfg.FeatureHidden, "seq: width of each feature's FC layer in the state encoder")
	fl.IntVar(&f.cfg.Width, "width", f.cfg.Width, "seq: backbone width (own backbone)")
	fl.IntVar(&f.cfg.Layers, "layers", f.cfg.Layers, "seq: transformer blocks (own backbone)")
	fl.IntVar(&f.cfg.Heads, "heads", f.cfg.Heads, "seq: attention heads (must divide the width; GPT-2 124M has 12)")
	fl.StringVar(&f.cfg.Backbone, "backbone", f.cfg.Backbone, "seq: own (trained from scratch) or gpt2 (frozen, from --gpt2, with LoRA)")
	fl.StringVar(&f.gpt2, "gpt2", "", "seq: GPT-2 checkpoint `FILE.safetensors` for --backbone gpt2")
	fl.IntVar(&f.cfg.LoRARank, "lora-rank", 8, "seq: LoRA rank on the GPT-2 backbone (0: frozen backbone, no adapters)")
	fl.Float64Var(&f.cfg.LoRAAlpha, "lora-alpha", 16, "seq: LoRA alpha (the adapter is scaled by alpha/rank)")
	fl.StringVar(&f.targets, "lora-targets", strings.Join(seq.LoRATargetNames, ","), "seq: comma-separated GPT-2 matrices LoRA adapts")
	fl.IntVar(&f.tc.Epochs, "epochs", f.tc.Epochs, "seq: passes over the windows")
	fl.IntVar(&f.tc.Batch, "batch", f.tc.Batch, "seq: windows per micro-batch (paper 003: 20)")
	fl.IntVar(&f.tc.Accumulate, "accumulate", f.tc.Accumulate, "seq: micro-batches per optimizer step (gradient accumulation)")
	fl.Float64Var(&f.tc.ClipNorm, "clip-norm", f.tc.ClipNorm, "seq: global gradient-norm clip (0: none)")
	fl.Uint64Var(&f.tc.Seed, "seed", f.tc.Seed, "seq: seed of the initial weights and the shuffling")
	fl.StringVar(&f.checkpoint, "checkpoint", "", "seq: checkpoint `FILE`: resumed from when it exists, saved as training goes and on Ctrl-C")
	fl.IntVar(&f.tc.CheckpointEvery, "checkpoint-every", f.tc.CheckpointEvery, "seq: optimizer steps between checkpoints")
	fl.StringVar(&f.curves, "curves", "", "seq: write the loss/accuracy curve per epoch as CSV to `FILE`")
}

// runLearnTrainSeq trains the sequence policy on the pools' rows.
// With counterfactual labels only the rows learn label replayed are fitted
// and scored; the others are the traces' history.
func runLearnTrainSeq(cmd *cobra.Command, rows []learn.Row, args []string, labels learn.LabelSource, holdout, out string, rate float64, f *learnSeqFlags) error {
	if out == "" {
		return badInput("learn train --model seq: --out FILE is required (the model is a safetensors file)")
	}
	f.tc.Rate = rate
	if !cmd.Flags().Changed("rate") {
		f.tc.Rate = seq.DefaultTrainConfig().Rate
	}
	cfg := f.cfg
	if cfg.Backbone == seq.BackboneGPT2 {
		cfg.LoRATargets = strings.Split(f.targets, ",")
		if cfg.LoRARank == 0 {
			cfg.LoRATargets, cfg.LoRAAlpha = nil, 0
		}
	} else {
		cfg.LoRARank, cfg.LoRAAlpha = 0, 0
		for _, fl := range []string{"gpt2", "lora-rank", "lora-alpha", "lora-targets"} {
			if cmd.Flags().Changed(fl) {
				return badInput("learn train: --%s needs --backbone gpt2", fl)
			}
		}
	}
	if err := cfg.Validate(); err != nil && cfg.Backbone != seq.BackboneGPT2 {
		return badInput("learn train: %v", err)
	}
	if err := f.tc.Validate(); err != nil {
		return badInput("learn train: %v", err)
	}
	seqs, what := seq.SequencesOf(rows, labels), "eq. 3 mapped gain (paper 003)"
	if labels == learn.LabelCounterfactual {
		what = "counterfactual argmax of eq. 16 on simulator replays (leolab learn label)"
		if !slices.ContainsFunc(rows, func(r learn.Row) bool { return r.LabelSource == learn.LabelCounterfactual && r.Phase != learn.Cruise }) {
			return badInput("learn train: --labels counterfactual: no row of %s has label_source counterfactual (write the pool with learn label)", strings.Join(args, " "))
		}
	}
	train, held := seqs, []seq.Sequence(nil)
	if holdout != "" {
		train, held = seq.SplitLocation(seqs, strings.ToLower(holdout))
		if len(held) == 0 {
			return badInput("learn train: no rows at --holdout %s", holdout)
		}
	}
	ctx, stop := signal.NotifyContext(gocontext.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var curves strings.Builder
	start := time.Now()
	m, err := seq.Train(ctx, cfg, f.tc, train, seq.TrainOptions{Checkpoint: f.checkpoint, GPT2: f.gpt2, Held: held,
		Curves: &curves, Progress: cmd.ErrOrStderr()})
	if err != nil {
		if errors.Is(err, gocontext.Canceled) {
			return err
		}
		return badInput("learn train: %v", err)
	}
	total, trainable := m.Params()
	stderr := cmd.ErrOrStderr()
	fmt.Fprintf(stderr, "leolab: learn train: seq model: %d parameters, %d trainable (%.2f%%); trained in %.1fs\n",
		total, trainable, 100*float64(trainable)/float64(total), time.Since(start).Seconds())
	prior := seq.LabelPrior(train)
	report := func(set string, s []seq.Sequence) error {
		ev, err := m.Evaluate(s, prior)
		if err != nil {
			return err
		}
		for _, e := range ev.Phases {
			fmt.Fprintf(stderr, "leolab: learn train: %s %v\n", set, e)
		}
		return nil
	}
	if err := report("train", train); err != nil {
		return err
	}
	if len(held) > 0 {
		if err := report("held-out "+holdout, held); err != nil {
			return err
		}
	}
	regen := "leolab learn train --model seq " + strings.Join(args, " ")
	if labels != learn.LabelSurrogate {
		regen += " --labels " + labels.String()
	}
	m.Training = []byte(fmt.Sprintf(`{"label":%q,"holdout":%q,"regenerate":%q}`, what, holdout, regen))
	if f.curves != "" {
		if err := os.WriteFile(f.curves, []byte(curves.String()), 0o644); err != nil {
			return fmt.Errorf("learn train: %w", err)
		}
	}
	if err := m.SaveModel(out); err != nil {
		return fmt.Errorf("learn train: %w", err)
	}
	return nil
}
