package seq

import (
	"fmt"
	"math"

	"github.com/leolab/leolab/learn"
)

// Forward is the model's inference in plain Go: the arithmetic of the
// gomlx graph (model.go) for one window, giving the logits of its last
// state token, with every buffer allocated once so that a decision in the
// controller allocates nothing. Sums run in float64 over float32 weights.
//
// Shortcuts, all exact under causal attention: the window's last action
// token is dropped (nothing before it attends to it); the last block
// computes its attention and MLP for the last state token only (the
// other tokens' outputs of that block feed nothing); and LogitsLast
// reuses the keys and values of every earlier token from the previous
// pass, computing only the last token, when only that token changed.
type Forward struct {
	cfg    Config
	target float32
	enc    encWeights
	blocks []blockWeights
	lnF    lnWeights
	head   linWeights
	mask   [3][NumActions]float32 // eq. 15's phase mask, indexed by learn.Phase

	// scratch, sized for the window's 3W−1 tokens
	x, h, att []float32   // [T, d]
	qkv       [][]float32 // per block [T, 3d]: kept for LogitsLast
	mlp       []float32   // [T, 4d]
	prob      []float64   // [T]
	acc       []float64   // [4d]
	lo        []float32   // [r] LoRA's x·A
	feat      []float32   // [F·hd] the state encoder's FC outputs
}

type linWeights struct {
	w, b   []float32 // [in, out], [out]
	in     int
	out    int
	a, bm  []float32 // LoRA A [in, r], B [r, out]; nil without
	r      int
	lscale float64
}

type lnWeights struct{ g, b []float32 }

type encWeights struct {
	timestep, action []float32 // [W, d], [NumActions+1, d]
	ret              linWeights
	featW, featB     []float32 // [F, hd]
	project          linWeights
	ln, lnIn         lnWeights
}

type blockWeights struct {
	ln1, ln2       lnWeights
	cAttn, cProj   linWeights
	mlpFc, mlpProj linWeights
}

// Forward copies m's variables into a plain-Go forward pass.
func (m *Model) Forward() (*Forward, error) {
	vars, err := m.Variables()
	if err != nil {
		return nil, err
	}
	return newForward(m.Config, m.Target, vars)
}

// newForward builds the pass from variables by key, checking each
// one's size against cfg (a file's shapes are checked before, in setFrom;
// this guards the copy).
func newForward(cfg Config, target float32, vars map[string][]float32) (*Forward, error) {
	d, w, hd := cfg.Width, cfg.Window, cfg.FeatureHidden
	var missing error
	get := func(key string, n int) []float32 {
		v, ok := vars[key]
		if !ok || len(v) != n {
			if missing == nil {
				missing = fmt.Errorf("seq: forward pass: variable %s has %d values, want %d", key, len(v), n)
			}
			return make([]float32, n)
		}
		return v
	}
	lin := func(scope string, in, out int) linWeights {
		return linWeights{w: get(scope+"/weight", in*out), b: get(scope+"/bias", out), in: in, out: out}
	}
	ln := func(scope string) lnWeights { return lnWeights{g: get(scope+"/weight", d), b: get(scope+"/bias", d)} }
	f := &Forward{cfg: cfg, target: target}
	f.enc = encWeights{
		timestep: get("/encoder/timestep/table", w*d),
		action:   get("/encoder/action/table", (NumActions+1)*d),
		ret:      lin("/encoder/return", 1, d),
		featW:    get("/encoder/features/weight", NumFeatures*hd),
		featB:    get("/encoder/features/bias", NumFeatures*hd),
		project:  lin("/encoder/project", NumFeatures*hd, d),
		ln:       ln("/encoder/ln"),
		lnIn:     ln("/encoder/ln_in"),
	}
	blin := func(blk, name string, in, out int) linWeights {
		l := lin("/backbone/"+blk+"."+name, in, out)
		if cfg.LoRARank > 0 && contains(cfg.LoRATargets, name) {
			r := cfg.LoRARank
			l.a, l.bm, l.r = get("/lora/"+blk+"."+name+"/A", in*r), get("/lora/"+blk+"."+name+"/B", r*out), r
			l.lscale = cfg.LoRAAlpha / float64(r)
		}
		return l
	}
	for l := range cfg.Layers {
		blk := fmt.Sprintf("h.%d", l)
		f.blocks = append(f.blocks, blockWeights{
			ln1: ln("/backbone/" + blk + ".ln_1"), ln2: ln("/backbone/" + blk + ".ln_2"),
			cAttn: blin(blk, "attn.c_attn", d, 3*d), cProj: blin(blk, "attn.c_proj", d, d),
			mlpFc: blin(blk, "mlp.c_fc", d, 4*d), mlpProj: blin(blk, "mlp.c_proj", 4*d, d),
		})
	}
	f.lnF = ln("/backbone/ln_f")
	f.head = lin("/head", d, NumActions)
	if missing != nil {
		return nil, missing
	}
	for _, ph := range []learn.Phase{learn.Cruise, learn.Up, learn.Down} {
		for k, a := range learn.Actions {
			if !learn.IsFeasible(ph, a) {
				f.mask[ph][k] = maskValue
			}
		}
	}
	t := 3*w - 1
	f.x, f.h, f.att = make([]float32, t*d), make([]float32, t*d), make([]float32, t*d)
	for range cfg.Layers {
		f.qkv = append(f.qkv, make([]float32, t*3*d))
	}
	f.mlp = make([]float32, t*4*d)
	f.prob, f.acc = make([]float64, t), make([]float64, 4*d)
	f.lo = make([]float32, max(cfg.LoRARank, 1))
	f.feat = make([]float32, NumFeatures*hd)
	return f, nil
}

// Config is the architecture the pass computes.
func (f *Forward) Config() Config { return f.cfg }

// EncodeState writes the state encoder's output for features x into
// dst (Width values): per feature FC + LeakyReLU, projection, LayerNorm.
// A step's encoding does not depend on its place in the window, so an
// online policy computes it once per step.
func (f *Forward) EncodeState(dst []float32, x *Features) {
	hd := f.cfg.FeatureHidden
	for i, v := range x {
		for j := range hd {
			e := v*f.enc.featW[i*hd+j] + f.enc.featB[i*hd+j]
			if e < 0 {
				e *= leakySlope
			}
			f.feat[i*hd+j] = e
		}
	}
	f.linear(dst, f.feat, 1, &f.enc.project)
	f.layerNorm(dst, dst, 1, &f.enc.ln)
}

// Window is one decision's input: W steps, oldest first. States holds
// each step's EncodeState output ([W, Width]); Return, Action (an index
// into learn.Actions, NoAction for the current step and padding) per
// step; Phase is the current (last) step's, which masks the head.
type Window struct {
	States []float32
	Return []float32
	Action []int32
	Phase  learn.Phase
}

// Logits writes the masked logits of the window's last state token into
// out (NumActions values).
func (f *Forward) Logits(out []float32, in *Window) {
	d, w := f.cfg.Width, f.cfg.Window
	t := 3*w - 1
	x := f.x
	// Tokens: return, state, action per step, each plus the step's
	// timestep embedding (Algorithm 2 lines 19–23).
	for k := range w {
		et := f.enc.timestep[k*d : (k+1)*d]
		r := x[(3*k)*d : (3*k+1)*d]
		for j := range d {
			r[j] = in.Return[k]*f.enc.ret.w[j] + f.enc.ret.b[j] + et[j]
		}
		s := x[(3*k+1)*d : (3*k+2)*d]
		st := in.States[k*d : (k+1)*d]
		for j := range d {
			s[j] = st[j] + et[j]
		}
		if k == w-1 {
			break // the last action token: dropped (see Forward)
		}
		a := x[(3*k+2)*d : (3*k+3)*d]
		tab := f.enc.action[int(in.Action[k])*d:]
		for j := range d {
			a[j] = tab[j] + et[j]
		}
	}
	f.layerNorm(x, x, t, &f.enc.lnIn)
	for l := range f.blocks {
		outFrom := 0
		if l == len(f.blocks)-1 {
			outFrom = t - 1
		}
		f.block(l, t, 0, outFrom)
	}
	f.lastHead(out, in.Phase)
}

// LogitsLast is Logits for a window that differs from the previous
// call's (Logits or LogitsLast) in its last state token and its phase
// only: every earlier token's keys and values are the previous pass's,
// so only the last token runs through the blocks. The result is what
// Logits gives, to the bit.
func (f *Forward) LogitsLast(out []float32, in *Window) {
	d, w := f.cfg.Width, f.cfg.Window
	t := 3*w - 1
	last := f.x[(t-1)*d : t*d]
	et := f.enc.timestep[(w-1)*d : w*d]
	st := in.States[(w-1)*d : w*d]
	for j := range d {
		last[j] = st[j] + et[j]
	}
	f.layerNorm(last, last, 1, &f.enc.lnIn)
	for l := range f.blocks {
		f.block(l, t, t-1, t-1)
	}
	f.lastHead(out, in.Phase)
}

// lastHead is the final LayerNorm and the head on the last token, masked to
// phase ph's gains (eq. 15).
func (f *Forward) lastHead(out []float32, ph learn.Phase) {
	d, t := f.cfg.Width, 3*f.cfg.Window-1
	last := f.x[(t-1)*d : t*d]
	f.layerNorm(last, last, 1, &f.lnF)
	f.linear(out, last, 1, &f.head)
	for k := range out {
		out[k] += f.mask[ph][k]
	}
}

// block runs pre-LayerNorm GPT-2 block l on f.x's t tokens: queries,
// keys and values of tokens kvFrom.. (those before are the previous
// pass's), attention and MLP for the tokens outFrom.. only.
func (f *Forward) block(l, t, kvFrom, outFrom int) {
	b := &f.blocks[l]
	d := f.cfg.Width
	nh := f.cfg.Heads
	dh := d / nh
	qkv := f.qkv[l]
	f.layerNorm(f.h[kvFrom*d:], f.x[kvFrom*d:], t-kvFrom, &b.ln1)
	f.linear(qkv[kvFrom*3*d:], f.h[kvFrom*d:], t-kvFrom, &b.cAttn)
	first := outFrom
	scale := 1 / math.Sqrt(float64(dh))
	for q := first; q < t; q++ {
		for hh := range nh {
			qv := qkv[q*3*d+hh*dh : q*3*d+(hh+1)*dh]
			mx := math.Inf(-1)
			for k := 0; k <= q; k++ { // causal: keys up to the query
				kv := qkv[k*3*d+d+hh*dh : k*3*d+d+(hh+1)*dh]
				var s float64
				for j := range dh {
					s += float64(qv[j]) * float64(kv[j])
				}
				s *= scale
				f.prob[k] = s
				mx = max(mx, s)
			}
			var sum float64
			for k := 0; k <= q; k++ {
				f.prob[k] = math.Exp(f.prob[k] - mx)
				sum += f.prob[k]
			}
			o := f.acc[:dh]
			clear(o)
			for k := 0; k <= q; k++ {
				p := f.prob[k] / sum
				vv := qkv[k*3*d+2*d+hh*dh : k*3*d+2*d+(hh+1)*dh]
				for j := range dh {
					o[j] += p * float64(vv[j])
				}
			}
			dst := f.att[q*d+hh*dh : q*d+(hh+1)*dh]
			for j := range dh {
				dst[j] = float32(o[j])
			}
		}
	}
	n := t - first
	x, h, att := f.x[first*d:t*d], f.h[first*d:t*d], f.att[first*d:t*d]
	f.linear(h, att, n, &b.cProj)
	for i := range x {
		x[i] += h[i]
	}
	f.layerNorm(h, x, n, &b.ln2)
	mlp := f.mlp[:n*4*d]
	f.linear(mlp, h, n, &b.mlpFc)
	for i, v := range mlp {
		mlp[i] = gelu(v)
	}
	f.linear(h, mlp, n, &b.mlpProj)
	for i := range x {
		x[i] += h[i]
	}
}

// gelu is GPT-2's gelu_new (tanh approximation), as gomlx's
// GeluApproximate: 0.5·x·(1 + tanh(u)), u = √(2/π)·(x + 0.044715·x³),
// computed as x/(1 + e^(−2u)), the same function with one exponential
// (math.Tanh costs more than math.Exp, and this is a third of a pass).
func gelu(v float32) float32 {
	x := float64(v)
	u := math.Sqrt(2/math.Pi) * (x + 0.044715*x*x*x)
	return float32(x / (1 + math.Exp(-2*u)))
}

// linear is dst = src·W + b (+ LoRA's scale·(src·A)·B) for n rows.
func (f *Forward) linear(dst, src []float32, n int, l *linWeights) {
	acc := f.acc[:l.out]
	for r := range n {
		xs := src[r*l.in : (r+1)*l.in]
		for j, b := range l.b {
			acc[j] = float64(b)
		}
		for i, xv := range xs {
			if xv == 0 {
				continue
			}
			axpy(acc, float64(xv), l.w[i*l.out:(i+1)*l.out])
		}
		if l.r > 0 {
			lo := f.lo[:l.r]
			for k := range lo {
				var s float64
				for i, xv := range xs {
					s += float64(xv) * float64(l.a[i*l.r+k])
				}
				lo[k] = float32(s)
			}
			for k, t := range lo {
				axpy(acc, l.lscale*float64(t), l.bm[k*l.out:(k+1)*l.out])
			}
		}
		out := dst[r*l.out : (r+1)*l.out]
		for j, v := range acc {
			out[j] = float32(v)
		}
	}
}

// layerNorm normalises each of n rows of src (Width values) into dst.
func (f *Forward) layerNorm(dst, src []float32, n int, ln *lnWeights) {
	d := f.cfg.Width
	for r := range n {
		xs := src[r*d : (r+1)*d]
		var mean float64
		for _, v := range xs {
			mean += float64(v)
		}
		mean /= float64(d)
		var vr float64
		for _, v := range xs {
			c := float64(v) - mean
			vr += c * c
		}
		inv := 1 / math.Sqrt(vr/float64(d)+lnEps)
		out := dst[r*d : (r+1)*d]
		for j, v := range xs {
			out[j] = float32((float64(v)-mean)*inv)*ln.g[j] + ln.b[j]
		}
	}
}

// axpy is acc += a·w, four at a time (the pass's inner loop: Go does not
// vectorise, so unrolling and one bounds check per block carry its speed).
func axpy(acc []float64, a float64, w []float32) {
	acc = acc[:len(w)]
	j := 0
	for ; j+4 <= len(w); j += 4 {
		ww, aa := w[j:j+4:j+4], acc[j:j+4:j+4]
		aa[0] += a * float64(ww[0])
		aa[1] += a * float64(ww[1])
		aa[2] += a * float64(ww[2])
		aa[3] += a * float64(ww[3])
	}
	for ; j < len(w); j++ {
		acc[j] += a * float64(w[j])
	}
}
