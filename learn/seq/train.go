package seq

import (
	gocontext "context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph" //nolint:staticcheck // gomlx's graph DSL reads as math
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/train/optimizers"
)

// TrainOptions are the side channels of Train.
type TrainOptions struct {
	// Checkpoint is the checkpoint file: loaded when it exists (the run
	// resumes where it stopped), written every CheckpointEvery steps, at
	// each epoch's end and when ctx is cancelled. Empty: no checkpoints.
	Checkpoint string
	// GPT2 is the safetensors file of the backbone when Config.Backbone
	// is gpt2.
	GPT2 string
	// Held sequences are evaluated after every epoch into the curves.
	Held []Sequence
	// Curves receives the loss/accuracy curve as CSV, one row per epoch.
	Curves io.Writer
	// Progress receives one line per epoch (stderr in the CLI).
	Progress io.Writer
	// AfterStep is called after each optimizer step with the global step
	// count (tests use it to cancel a run mid-way).
	AfterStep func(step int)
}

// CurveHeader is the curve CSV's header.
const CurveHeader = "epoch,step,train_loss,train_accuracy,held_loss,held_accuracy\n"

// trainState is where a run is: what a checkpoint restores.
type trainState struct {
	Epoch, Pos, Step int // epoch, optimizer step within it, global steps
	LossSum, Correct float64
	Count            float64
	Curves           string // CSV rows of the finished epochs
}

// Train fits a model of cfg to the sequences' eq. 3 labels by the
// return-conditioned objective of eq. 20: the cross-entropy of each
// UP/DOWN step's label under the masked head, averaged over the steps of
// windows of w steps ending at every step of every trace, the windows
// shuffled per epoch by a PCG stream of (Seed, epoch). Adam with global
// gradient-norm clipping. Deterministic: the same inputs and seed give the
// same weights, also across a kill and resume from a checkpoint.
func Train(ctx gocontext.Context, cfg Config, tc TrainConfig, seqs []Sequence, opt TrainOptions) (*Model, error) {
	if err := tc.Validate(); err != nil {
		return nil, fmt.Errorf("seq: train: %w", err)
	}
	wins := windows(seqs)
	if len(wins) == 0 {
		return nil, fmt.Errorf("seq: train: no steps to train on")
	}
	m, err := NewModel(cfg, tc.Seed, opt.GPT2)
	if err != nil {
		return nil, err
	}
	cfg = m.Config
	m.Target = targetReturn(seqs)
	step, err := context.NewExecAny(m.backend, m.ctx, func(ctx *context.Context, in []*Node) []*Node {
		return m.net.trainStep(ctx, tc, in)
	})
	if err != nil {
		return nil, fmt.Errorf("seq: train: %w", err)
	}
	fp := fingerprint(cfg, tc, seqs)
	var st trainState
	if opt.Checkpoint != "" {
		if _, err := os.Stat(opt.Checkpoint); err == nil {
			if st, err = loadCheckpoint(m, opt.Checkpoint, fp); err != nil {
				return nil, err
			}
		}
	}
	per := tc.Batch * tc.Accumulate
	stepsPerEpoch := (len(wins) + per - 1) / per
	b := newBatch(per, cfg.Window)
	save := func() error {
		if opt.Checkpoint == "" {
			return nil
		}
		return saveCheckpoint(m, opt.Checkpoint, fp, st)
	}
	start := time.Now()
	for ; st.Epoch < tc.Epochs; st.Epoch++ {
		perm := shuffled(len(wins), tc.Seed, st.Epoch)
		for ; st.Pos < stepsPerEpoch; st.Pos++ {
			for n := range per {
				i := st.Pos*per + n
				if i < len(perm) {
					b.fill(n, seqs, wins[perm[i]])
				} else {
					b.fill(n, seqs, window{Seq: 0, End: -1}) // all padding, weight 0
				}
			}
			out, err := step.Exec(
				tensors.FromFlatDataAndDimensions(b.X, b.N, b.W, NumFeatures),
				tensors.FromFlatDataAndDimensions(b.Return, b.N, b.W),
				tensors.FromFlatDataAndDimensions(b.Action, b.N, b.W),
				tensors.FromFlatDataAndDimensions(b.Phase, b.N, b.W),
				tensors.FromFlatDataAndDimensions(b.Label, b.N, b.W),
				tensors.FromFlatDataAndDimensions(b.Weight, b.N, b.W))
			if err != nil {
				return nil, fmt.Errorf("seq: train step: %w", err)
			}
			vals := make([]float64, len(out))
			for i, o := range out {
				vals[i] = float64(tensors.ToScalar[float32](o))
				o.FinalizeAll()
			}
			st.LossSum += vals[0]
			st.Correct += vals[1]
			st.Count += vals[2]
			st.Step++
			if opt.AfterStep != nil {
				opt.AfterStep(st.Step)
			}
			if ctx.Err() != nil {
				st.Pos++
				if err := save(); err != nil {
					return nil, err
				}
				return nil, fmt.Errorf("seq: train: stopped at step %d (checkpoint %s): %w", st.Step, opt.Checkpoint, ctx.Err())
			}
			if st.Step%tc.CheckpointEvery == 0 && st.Pos+1 < stepsPerEpoch {
				st.Pos++
				err := save()
				st.Pos--
				if err != nil {
					return nil, err
				}
			}
		}
		row := fmt.Sprintf("%d,%d,%.6f,%.6f", st.Epoch+1, st.Step, st.LossSum/max(st.Count, 1), st.Correct/max(st.Count, 1))
		hl, ha := "", ""
		if len(opt.Held) > 0 {
			ev, err := m.Evaluate(opt.Held, nil)
			if err != nil {
				return nil, err
			}
			hl, ha = fmt.Sprintf("%.6f", ev.Total.CE()), fmt.Sprintf("%.6f", ev.Total.Accuracy())
		}
		st.Curves += row + "," + hl + "," + ha + "\n"
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "leolab: learn train: seq epoch %d/%d step %d loss %.4f accuracy %.3f",
				st.Epoch+1, tc.Epochs, st.Step, st.LossSum/max(st.Count, 1), st.Correct/max(st.Count, 1))
			if hl != "" {
				fmt.Fprintf(opt.Progress, " held-out loss %s accuracy %s", hl, ha)
			}
			fmt.Fprintf(opt.Progress, " (%.1fs)\n", time.Since(start).Seconds())
		}
		st.Pos, st.LossSum, st.Correct, st.Count = 0, 0, 0, 0
		if opt.Checkpoint != "" {
			next := st
			next.Epoch++
			if err := saveCheckpoint(m, opt.Checkpoint, fp, next); err != nil {
				return nil, err
			}
		}
	}
	if opt.Curves != nil {
		if _, err := io.WriteString(opt.Curves, CurveHeader+st.Curves); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// NewModel builds a model of cfg with its variables initialised from
// seed; with a gpt2 backbone, the backbone's come (frozen) from the
// safetensors file gpt2Path and cfg's width and layers from its shapes.
func NewModel(cfg Config, seed uint64, gpt2Path string) (*Model, error) {
	var gpt2 *SFile
	if cfg.Backbone == BackboneGPT2 {
		if gpt2Path == "" {
			return nil, fmt.Errorf("seq: --backbone gpt2 needs --gpt2 FILE.safetensors")
		}
		gc, f, err := readGPT2(gpt2Path, cfg)
		if err != nil {
			return nil, err
		}
		cfg, gpt2 = gc, f
	}
	m, err := newModel(cfg, seed)
	if err != nil {
		return nil, fmt.Errorf("seq: %w", err)
	}
	if gpt2 != nil {
		if err := loadGPT2(m.ctx, gpt2Path, gpt2, cfg); err != nil {
			return nil, err
		}
	}
	if err := m.initVars(); err != nil {
		return nil, err
	}
	return m, nil
}

// trainStep builds one optimizer step: loss, gradients, clipping, Adam.
// It returns the step's summed cross-entropy, correct count and weight.
func (m *net) trainStep(ctx *context.Context, tc TrainConfig, in []*Node) []*Node {
	g := in[0].Graph()
	ctx.SetTraining(g, true)
	logits := m.logits(ctx, in[0], in[1], in[2], in[3])
	label, weight := in[4], in[5]
	ce := Neg(ReduceSum(Mul(LogSoftmax(logits, -1), OneHot(label, NumActions, dtypes.Float32)), -1))
	wsum := ReduceAllSum(weight)
	ceSum := ReduceAllSum(Mul(ce, weight))
	loss := Div(ceSum, Max(wsum, OnesLike(wsum)))
	pred := ArgMax(logits, -1, dtypes.Int32)
	correct := ReduceAllSum(Mul(ConvertDType(Equal(pred, label), dtypes.Float32), weight))
	grads := ctx.BuildTrainableVariablesGradientsGraph(loss)
	if tc.ClipNorm > 0 {
		var sq *Node
		for _, gr := range grads {
			s := ReduceAllSum(Square(gr))
			if sq == nil {
				sq = s
			} else {
				sq = Add(sq, s)
			}
		}
		norm := Sqrt(sq)
		scale := Div(Scalar(g, dtypes.Float32, tc.ClipNorm), Max(norm, Scalar(g, dtypes.Float32, tc.ClipNorm)))
		for i := range grads {
			grads[i] = Mul(grads[i], scale)
		}
	}
	opt := optimizers.Adam().LearningRate(tc.Rate).Done()
	opt.(interface {
		UpdateGraphWithGradients(*context.Context, []*Node, dtypes.DType)
	}).UpdateGraphWithGradients(ctx, grads, dtypes.Float32)
	return []*Node{ceSum, correct, wsum}
}

// shuffled is a permutation of 0..n−1 from a PCG stream of (seed, epoch).
func shuffled(n int, seed uint64, epoch int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, uint64(epoch)+0x9e3779b97f4a7c15))
	rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// targetReturn is the 90th percentile of the steps' mean returns-to-go.
func targetReturn(seqs []Sequence) float32 {
	var r []float32
	for _, s := range seqs {
		for _, st := range s.Steps {
			r = append(r, st.Return)
		}
	}
	if len(r) == 0 {
		return 0
	}
	slices.Sort(r)
	return r[min(len(r)-1, int(math.Floor(0.9*float64(len(r)))))]
}

// fingerprint identifies a run's inputs, so a checkpoint is resumed only
// by the run that wrote it.
func fingerprint(cfg Config, tc TrainConfig, seqs []Sequence) string {
	c, _ := json.Marshal(cfg)
	t, _ := json.Marshal(tc)
	h := uint64(14695981039346656037) // FNV-1a offset basis
	mix := func(v uint64) { h ^= v; h *= 1099511628211 }
	for _, s := range seqs {
		for _, st := range s.Steps {
			for _, x := range st.X {
				mix(uint64(math.Float32bits(x)))
			}
			u := uint64(0)
			if st.Unlabelled {
				u = 1
			}
			mix(u<<16 | uint64(st.Action)<<8 | uint64(st.Phase))
			mix(uint64(math.Float32bits(st.Return)))
		}
	}
	return string(c) + " " + string(t) + " data " + strconv.FormatUint(h, 16)
}

func (st trainState) meta() map[string]string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return map[string]string{"epoch": strconv.Itoa(st.Epoch), "pos": strconv.Itoa(st.Pos), "step": strconv.Itoa(st.Step),
		"loss_sum": f(st.LossSum), "correct": f(st.Correct), "count": f(st.Count), "curves": st.Curves}
}

func parseState(meta map[string]string) (trainState, error) {
	var st trainState
	var err error
	geti := func(k string) int {
		v, e := strconv.Atoi(meta[k])
		if e != nil && err == nil {
			err = fmt.Errorf("metadata %q = %q: want an integer", k, meta[k])
		}
		return v
	}
	getf := func(k string) float64 {
		v, e := strconv.ParseFloat(meta[k], 64)
		if e != nil && err == nil {
			err = fmt.Errorf("metadata %q = %q: want a number", k, meta[k])
		}
		return v
	}
	st.Epoch, st.Pos, st.Step = geti("epoch"), geti("pos"), geti("step")
	st.LossSum, st.Correct, st.Count = getf("loss_sum"), getf("correct"), getf("count")
	st.Curves = meta["curves"]
	if err == nil && (st.Epoch < 0 || st.Pos < 0 || st.Step < 0 || strings.Count(st.Curves, "\n") != st.Epoch) {
		err = fmt.Errorf("metadata: inconsistent position epoch %d pos %d step %d", st.Epoch, st.Pos, st.Step)
	}
	return st, err
}
