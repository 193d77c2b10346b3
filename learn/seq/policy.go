package seq

import (
	"encoding/json"
	"fmt"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	. "github.com/gomlx/gomlx/pkg/core/graph" //nolint:staticcheck // gomlx's graph DSL reads as math
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// Model is a trained (or initialised) sequence policy: the variables of
// its gomlx context and the executable of its forward pass.
type Model struct {
	Config Config
	// Target is the mean return-to-go the policy is conditioned on when it
	// acts (Decision Transformer's target return): the 90th percentile of
	// the training steps' returns.
	Target float32
	// Training is the free-form record of how the weights were obtained.
	Training json.RawMessage

	backend backends.Backend
	ctx     *context.Context
	net     *net
	exec    *context.Exec
}

// newBackend is gomlx's pure-Go backend: no CGO or accelerator needed,
// and the same results on every machine. Ops run one after another
// ("ops_sequential"); only DotGeneral splits its output blocks across
// workers, each block summed in a fixed order, so results do not depend on
// the core count. (simplego v0.26's default of running ops in parallel
// deadlocked here on 2 cores: ops holding every worker while waiting for
// a worker for their DotGeneral.)
func newBackend() (backends.Backend, error) { return simplego.New("ops_sequential") }

// newModel builds an uninitialised model of cfg; its variables are
// created, from seed, on the first forward pass.
func newModel(cfg Config, seed uint64) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	be, err := newBackend()
	if err != nil {
		return nil, fmt.Errorf("seq: gomlx backend: %w", err)
	}
	m := &Model{Config: cfg, backend: be, ctx: context.New(), net: &net{cfg: cfg, seed: seed}}
	m.exec, err = context.NewExecAny(be, m.ctx, func(ctx *context.Context, in []*Node) *Node {
		return m.net.logits(ctx, in[0], in[1], in[2], in[3])
	})
	if err != nil {
		return nil, fmt.Errorf("seq: %w", err)
	}
	return m, nil
}

// Logits runs the forward pass on b and returns the masked logits,
// [N, W, NumActions] row-major.
func (m *Model) Logits(b *Batch) ([]float32, error) {
	out, err := m.exec.Exec(
		tensors.FromFlatDataAndDimensions(b.X, b.N, b.W, NumFeatures),
		tensors.FromFlatDataAndDimensions(b.Return, b.N, b.W),
		tensors.FromFlatDataAndDimensions(b.Action, b.N, b.W),
		tensors.FromFlatDataAndDimensions(b.Phase, b.N, b.W))
	if err != nil {
		return nil, fmt.Errorf("seq: forward pass: %w", err)
	}
	defer out[0].FinalizeAll()
	return tensors.CopyFlatData[float32](out[0])
}

// initVars creates the variables by one forward pass on an empty window.
func (m *Model) initVars() error {
	_, err := m.Logits(emptyBatch(1, m.Config.Window))
	return err
}

func emptyBatch(n, w int) *Batch {
	b := newBatch(n, w)
	for i := range b.Action {
		b.Action[i] = int32(NoAction)
	}
	return b
}

// Params counts the model's parameters (encoder, backbone, LoRA, head):
// all of them and the trainable ones (paper 003 Fig. 8(a)'s measure).
func (m *Model) Params() (total, trainable int) {
	for v := range m.ctx.IterVariables() {
		if !isModelVar(varKey(v)) {
			continue
		}
		n := v.Shape().Size()
		total += n
		if v.Trainable {
			trainable += n
		}
	}
	return total, trainable
}

// Variables returns a copy of the model's variables by key, as float32
// slices (for tests and inspection).
func (m *Model) Variables() (map[string][]float32, error) {
	out := map[string][]float32{}
	for v := range m.ctx.IterVariables() {
		k := varKey(v)
		if !isModelVar(k) {
			continue
		}
		t, err := v.Value()
		if err != nil {
			return nil, err
		}
		f, err := tensors.CopyFlatData[float32](t)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = f
	}
	return out, nil
}
