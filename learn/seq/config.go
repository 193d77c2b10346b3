package seq

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/leolab/leolab/internal/quantity"
)

// Config is the model's architecture.
type Config struct {
	// Window is w, the number of steps the policy attends to (eq. 19's
	// t−w+1..t); each step is three tokens (return-to-go, state, action).
	Window int `json:"window"`
	// FeatureHidden is the width of each scalar feature's FC layer in the
	// state encoder (Algorithm 2 Part I).
	FeatureHidden int `json:"feature_hidden"`
	// Width, Layers and Heads size the transformer backbone. With a GPT-2
	// backbone Width and Layers come from its checkpoint.
	Width  int `json:"width"`
	Layers int `json:"layers"`
	Heads  int `json:"heads"`
	// Backbone is "own" (a small GPT-2-architecture transformer trained
	// from scratch) or "gpt2" (frozen weights from a safetensors file,
	// adapted with LoRA).
	Backbone string `json:"backbone"`
	// LoRA adapters on the frozen backbone (paper 003 §III.C): rank r,
	// scale alpha/r, and the GPT-2 matrices adapted.
	LoRARank    int      `json:"lora_rank,omitempty"`
	LoRAAlpha   float64  `json:"lora_alpha,omitempty"`
	LoRATargets []string `json:"lora_targets,omitempty"`
}

// Backbones.
const (
	BackboneOwn  = "own"
	BackboneGPT2 = "gpt2"
)

// LoRATargetNames are the GPT-2 block matrices LoRA can adapt (their
// names in the checkpoint: h.N.<target>.weight).
var LoRATargetNames = []string{"attn.c_attn", "attn.c_proj", "mlp.c_fc", "mlp.c_proj"}

// DefaultConfig is the default model: sized so that training on the pool
// of 20 two-minute simulated runs takes minutes on 2 cores with the
// pure-Go backend (see the package benchmarks). w = 8 steps of 1 s spans
// about three BBR ProbeBW cycles of 2–3 s (tcp_bbr.c bbr_bw_probe_base_us,
// bbr_bw_probe_rand_us).
func DefaultConfig() Config {
	return Config{Window: 8, FeatureHidden: 8, Width: 32, Layers: 2, Heads: 2, Backbone: BackboneOwn}
}

// DefaultLoRA sets paper 003's adaptation on a GPT-2 backbone: rank 8,
// alpha 16 (the PEFT library's common setting; the paper gives no
// numbers), on every attention and MLP matrix.
func (c *Config) DefaultLoRA() {
	c.LoRARank, c.LoRAAlpha, c.LoRATargets = 8, 16, slices.Clone(LoRATargetNames)
}

// Bounds of the architecture: beyond them a model does not train on 2
// cores in any useful time, or does not fit memory.
const (
	maxWindow = 256
	maxWidth  = 4096
	maxLayers = 64
	maxHidden = 256
	maxRankLR = 256
)

// Validate checks the architecture, naming each field as its flag.
func (c Config) Validate() error {
	check := func(flag string, v, lo, hi int) error {
		if v < lo || v > hi {
			return fmt.Errorf("--%s %d is out of range (allowed: %d..%d)", flag, v, lo, hi)
		}
		return nil
	}
	if err := check("window", c.Window, 1, maxWindow); err != nil {
		return err
	}
	if err := check("feature-hidden", c.FeatureHidden, 1, maxHidden); err != nil {
		return err
	}
	if err := check("width", c.Width, 1, maxWidth); err != nil {
		return err
	}
	if err := check("layers", c.Layers, 1, maxLayers); err != nil {
		return err
	}
	if err := check("heads", c.Heads, 1, c.Width); err != nil {
		return err
	}
	if c.Width%c.Heads != 0 {
		return fmt.Errorf("--heads %d does not divide --width %d", c.Heads, c.Width)
	}
	switch c.Backbone {
	case BackboneOwn:
		if c.LoRARank != 0 {
			return fmt.Errorf("--lora-rank %d: LoRA adapts a frozen backbone (--backbone gpt2), not the own one", c.LoRARank)
		}
	case BackboneGPT2:
		if err := check("lora-rank", c.LoRARank, 0, min(maxRankLR, c.Width)); err != nil {
			return err
		}
		if c.LoRARank > 0 {
			if err := quantity.Float(c.LoRAAlpha, math.SmallestNonzeroFloat64, 1e6); err != nil {
				return fmt.Errorf("--lora-alpha: %v", err)
			}
			if len(c.LoRATargets) == 0 {
				return fmt.Errorf("--lora-targets is empty (allowed: %s)", strings.Join(LoRATargetNames, ", "))
			}
			for _, t := range c.LoRATargets {
				if !slices.Contains(LoRATargetNames, t) {
					return fmt.Errorf("--lora-targets: %q (allowed: %s)", t, strings.Join(LoRATargetNames, ", "))
				}
			}
		}
	default:
		return fmt.Errorf("--backbone %q (allowed: %s, %s)", c.Backbone, BackboneOwn, BackboneGPT2)
	}
	return nil
}

// TrainConfig are the training hyperparameters. Defaults follow paper
// 003 §IV.A where it gives them: mini-batches of 20 with gradient
// accumulation and gradient clipping; its 150 epochs are cut to 6: on
// the pool of 20 simulated two-minute runs the training loss goes 0.64,
// 0.44, 0.42, 0.42, 0.41, 0.41 over epochs 1–6 (about 70 s each on 2
// shared cores), and held-out Tokyo's stops improving after epoch 2.
type TrainConfig struct {
	Epochs int `json:"epochs"`
	// Batch is the mini-batch (windows per micro-batch); Accumulate
	// micro-batches make one optimizer step. They are evaluated as one
	// batch of Batch·Accumulate windows: the mean over the step's
	// positions, which is what accumulating equally weighted micro-batch
	// gradients computes.
	Batch      int     `json:"batch"`
	Accumulate int     `json:"accumulate"`
	Rate       float64 `json:"rate"`      // Adam step size
	ClipNorm   float64 `json:"clip_norm"` // global gradient-norm clip
	Seed       uint64  `json:"seed"`
	// CheckpointEvery saves a checkpoint every so many optimizer steps
	// (and at the end of each epoch) when a checkpoint path is set.
	CheckpointEvery int `json:"checkpoint_every"`
}

// DefaultTrainConfig: see TrainConfig. Adam's 1e-3 is Kingma & Ba's
// default; clip at norm 1.0 (the value the Hugging Face Trainer uses,
// max_grad_norm, which the authors' fine-tuning builds on).
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{Epochs: 6, Batch: 20, Accumulate: 2, Rate: 1e-3, ClipNorm: 1, Seed: 1, CheckpointEvery: 50}
}

// Validate checks the hyperparameters, naming each as its flag.
func (c TrainConfig) Validate() error {
	if c.Epochs < 1 || c.Epochs > 100_000 {
		return fmt.Errorf("--epochs %d is out of range (allowed: 1..100000)", c.Epochs)
	}
	if c.Batch < 1 || c.Batch > 4096 {
		return fmt.Errorf("--batch %d is out of range (allowed: 1..4096)", c.Batch)
	}
	if c.Accumulate < 1 || c.Accumulate > 64 {
		return fmt.Errorf("--accumulate %d is out of range (allowed: 1..64)", c.Accumulate)
	}
	if err := quantity.Float(c.Rate, math.SmallestNonzeroFloat64, 10); err != nil {
		return fmt.Errorf("--rate: %v", err)
	}
	if err := quantity.Float(c.ClipNorm, 0, 1e6); err != nil {
		return fmt.Errorf("--clip-norm: %v", err)
	}
	if c.CheckpointEvery < 1 {
		return fmt.Errorf("--checkpoint-every %d must be at least 1", c.CheckpointEvery)
	}
	return nil
}
