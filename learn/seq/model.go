package seq

import (
	"fmt"
	"math"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph" //nolint:staticcheck // gomlx's graph DSL reads as math
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/layers/activations"

	"github.com/leolab/leolab/learn"
)

const (
	// gpt2Init is GPT-2's weight initialisation std (initializer_range
	// 0.02, Hugging Face GPT2Config); its residual projections are scaled
	// by 1/√(2·layers) (Radford et al. 2019, §2.3).
	gpt2Init = 0.02
	// lnEps is GPT-2's layer_norm_epsilon (1e-5).
	lnEps = 1e-5
	// maskValue stands in for −∞ in masked logits and attention scores
	// (exp underflows to 0 in float32).
	maskValue = -1e9
	// leakySlope: LeakyReLU's negative slope (PyTorch's default 0.01,
	// as the authors' encoder uses nn.LeakyReLU()).
	leakySlope = 0.01
)

// Scopes of the model's variables: what the encoder, backbone and head
// own, so tests and the parameter count can tell them apart.
const (
	ScopeEncoder  = "encoder"
	ScopeBackbone = "backbone"
	ScopeLoRA     = "lora"
	ScopeHead     = "head"
)

// net builds the model's graph in a gomlx context.
type net struct {
	cfg  Config
	seed uint64
}

// logits computes the masked action logits [B, W, NumActions] at every
// state token, from the inputs feats [B, W, F], ret [B, W], act and
// phase [B, W] (int32).
func (m *net) logits(ctx *context.Context, feats, ret, act, phase *Node) *Node {
	g := feats.Graph()
	b, w := feats.Shape().Dimensions[0], feats.Shape().Dimensions[1]
	d := m.cfg.Width
	// Timestep embedding E_t, added to every token of the step
	// (Algorithm 2 line 20, 23).
	et := param(ctx.In(ScopeEncoder).In("timestep"), g, m.seed, "table", normalInit(gpt2Init), w, d)
	et = BroadcastToDims(InsertAxes(et, 0), b, w, d)
	// Returns E_r and actions E_a as trainable linear maps (line 19).
	er := m.dense(ctx.In(ScopeEncoder).In("return"), InsertAxes(ret, -1), 1, d)
	actTab := param(ctx.In(ScopeEncoder).In("action"), g, m.seed, "table", normalInit(gpt2Init), NumActions+1, d)
	ea := Einsum("bwk,kd->bwd", OneHot(act, NumActions+1, dtypes.Float32), actTab)
	es := m.encodeState(ctx.In(ScopeEncoder), feats)
	tok := Stack([]*Node{Add(er, et), Add(es, et), Add(ea, et)}, 2) // [B, W, 3, d]
	x := Reshape(tok, b, 3*w, d)
	x = layerNorm(ctx.In(ScopeEncoder).In("ln_in"), x, m.seed) // line 27
	h := m.backbone(ctx, x)
	h = Reshape(h, b, w, 3, d)
	hs := pick(h, 2, 3, 1) // the state tokens
	logits := m.dense(ctx.In(ScopeHead), hs, d, NumActions)
	// The phase mask (eq. 15): −∞ on the gains outside S_phase.
	mask := make([][]float32, 3)
	for _, ph := range []learn.Phase{learn.Cruise, learn.Up, learn.Down} {
		row := make([]float32, NumActions)
		for k, a := range learn.Actions {
			if !learn.IsFeasible(ph, a) {
				row[k] = maskValue
			}
		}
		mask[ph] = row
	}
	return Add(logits, Einsum("bwp,pk->bwk", OneHot(phase, 3, dtypes.Float32), Const(g, mask)))
}

// encodeState is the seed-003 state encoder (Algorithm 2 Part I): one
// FC + LeakyReLU per scalar feature, their concatenation projected to the
// backbone width, then LayerNorm.
func (m *net) encodeState(ctx *context.Context, feats *Node) *Node {
	g := feats.Graph()
	b, w, f := feats.Shape().Dimensions[0], feats.Shape().Dimensions[1], feats.Shape().Dimensions[2]
	hd := m.cfg.FeatureHidden
	c := ctx.In("features")
	wf := param(c, g, m.seed, "weight", normalInit(1), f, hd) // FC_i: 1 → hd, one per feature
	bf := param(c, g, m.seed, "bias", zeroInit, f, hd)
	e := Add(Mul(InsertAxes(feats, -1), lead(wf, 4)), lead(bf, 4)) // [B, W, F, hd]
	e = activations.LeakyReluWithAlpha(e, leakySlope)
	e = Reshape(e, b, w, f*hd)
	e = m.dense(ctx.In("project"), e, f*hd, m.cfg.Width)
	return layerNorm(ctx.In("ln"), e, m.seed)
}

// dense is x·W + b over x's last axis (LeCun-initialised W).
func (m *net) dense(ctx *context.Context, x *Node, in, out int) *Node {
	g := x.Graph()
	wt := param(ctx, g, m.seed, "weight", normalInit(fanIn(in)), in, out)
	bs := param(ctx, g, m.seed, "bias", zeroInit, out)
	return Add(matLast(x, wt), lead(bs, x.Rank()))
}

func layerNorm(ctx *context.Context, x *Node, seed uint64) *Node {
	g := x.Graph()
	d := x.Shape().Dimensions[x.Rank()-1]
	gain := param(ctx, g, seed, "weight", oneInit, d)
	bias := param(ctx, g, seed, "bias", zeroInit, d)
	mean := ReduceAndKeep(x, ReduceMean, -1)
	xc := Sub(x, mean)
	v := ReduceAndKeep(Square(xc), ReduceMean, -1)
	return Add(Mul(Div(xc, Sqrt(AddScalar(v, lnEps))), lead(gain, x.Rank())), lead(bias, x.Rank()))
}

// backbone runs the GPT-2 blocks (pre-LayerNorm, causal self-attention,
// GELU MLP, final LayerNorm; Radford et al. 2019 and Hugging Face's
// modeling_gpt2.py layout) over x [B, T, d]. Variables are named as the
// checkpoint's tensors: backbone/h.N/attn.c_attn/weight, ...
func (m *net) backbone(ctx *context.Context, x *Node) *Node {
	g := x.Graph()
	t := x.Shape().Dimensions[1]
	causal := make([][]float32, t)
	for i := range causal {
		causal[i] = make([]float32, t)
		for j := i + 1; j < t; j++ {
			causal[i][j] = maskValue
		}
	}
	cm := Const(g, causal)
	bb := ctx.In(ScopeBackbone)
	for l := range m.cfg.Layers {
		blk := fmt.Sprintf("h.%d", l)
		h := layerNorm(bb.In(blk+".ln_1"), x, m.seed)
		x = Add(x, m.attention(ctx, blk, h, cm))
		h = layerNorm(bb.In(blk+".ln_2"), x, m.seed)
		d := m.cfg.Width
		h = m.linear(ctx, blk, "mlp.c_fc", h, d, 4*d, gpt2Init)
		h = activations.GeluApproximate(h) // GPT-2's gelu_new
		h = m.linear(ctx, blk, "mlp.c_proj", h, 4*d, d, gpt2Init/math.Sqrt(2*float64(m.cfg.Layers)))
		x = Add(x, h)
	}
	return layerNorm(bb.In("ln_f"), x, m.seed)
}

func (m *net) attention(ctx *context.Context, blk string, x, causal *Node) *Node {
	b, t, d := x.Shape().Dimensions[0], x.Shape().Dimensions[1], x.Shape().Dimensions[2]
	nh := m.cfg.Heads
	dh := d / nh
	qkv := m.linear(ctx, blk, "attn.c_attn", x, d, 3*d, gpt2Init)
	qkv = Reshape(qkv, b, t, 3, nh, dh)
	q, k, v := pick(qkv, 2, 3, 0), pick(qkv, 2, 3, 1), pick(qkv, 2, 3, 2)
	s := MulScalar(Einsum("bqhd,bkhd->bhqk", q, k), 1/math.Sqrt(float64(dh)))
	s = Add(s, lead(causal, 4))
	p := Softmax(s, -1)
	o := Reshape(Einsum("bhqk,bkhd->bqhd", p, v), b, t, d)
	return m.linear(ctx, blk, "attn.c_proj", o, d, d, gpt2Init/math.Sqrt(2*float64(m.cfg.Layers)))
}

// linear is a GPT-2 Conv1D (x·W + b, W stored [in, out]) of block blk,
// with a LoRA adapter when its matrix is a target: x·W + b +
// (alpha/r)·(x·A)·B, A ~ N(0, 1/in), B = 0 so the adapted model starts as
// the frozen one (Hu et al. 2021, §4.1).
func (m *net) linear(ctx *context.Context, blk, name string, x *Node, in, out int, std float64) *Node {
	g := x.Graph()
	c := ctx.In(ScopeBackbone).In(blk + "." + name)
	wt := param(c, g, m.seed, "weight", normalInit(std), in, out)
	bs := param(c, g, m.seed, "bias", zeroInit, out)
	y := Add(matLast(x, wt), lead(bs, x.Rank()))
	if m.cfg.LoRARank > 0 && contains(m.cfg.LoRATargets, name) {
		r := m.cfg.LoRARank
		lc := ctx.In(ScopeLoRA).In(blk + "." + name)
		a := param(lc, g, m.seed, "A", normalInit(fanIn(in)), in, r)
		bm := param(lc, g, m.seed, "B", zeroInit, r, out)
		y = Add(y, MulScalar(matLast(matLast(x, a), bm), m.cfg.LoRAAlpha/float64(r)))
	}
	return y
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// matLast multiplies x's last axis by the matrix w [in, out].
func matLast(x, w *Node) *Node {
	dims := x.Shape().Dimensions
	in, out := w.Shape().Dimensions[0], w.Shape().Dimensions[1]
	n := x.Shape().Size() / in
	y := Dot(Reshape(x, n, in), w)
	return Reshape(y, append(dims[:len(dims)-1:len(dims)-1], out)...)
}

// lead gives x leading axes of size 1 up to rank r, for gomlx's
// broadcasting of equal-rank operands.
func lead(x *Node, r int) *Node {
	dims := x.Shape().Dimensions
	full := make([]int, r)
	for i := range full {
		full[i] = 1
	}
	copy(full[r-len(dims):], dims)
	return Reshape(x, full...)
}

// pick takes element i of x's axis (of size n), dropping the axis, as a
// contraction with a one-hot vector: simplego has no Pad, which the
// gradient of Slice needs.
func pick(x *Node, axis, n, i int) *Node {
	sel := make([]float32, n)
	sel[i] = 1
	letters := "abcdefgh"[:x.Rank()]
	out := letters[:axis] + letters[axis+1:]
	return Einsum(letters+","+letters[axis:axis+1]+"->"+out, x, Const(x.Graph(), sel))
}
