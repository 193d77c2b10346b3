package seq

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gomlx/gomlx/pkg/ml/context"
)

// GPT-2 checkpoints (Hugging Face's GPT2Model / GPT2LMHeadModel saved as
// safetensors) name each block's tensors h.N.ln_1, h.N.attn.c_attn,
// h.N.attn.c_proj, h.N.ln_2, h.N.mlp.c_fc, h.N.mlp.c_proj (Conv1D weights
// stored [in, out]) and the final ln_f, optionally under "transformer.".
// The token and position embeddings (wte, wpe) and the LM head are not
// used: the policy feeds its own token embeddings (Decision Transformer
// does the same with GPT-2).

// gpt2Shapes gives each block tensor's shape for width d.
func gpt2Shapes(d int) map[string][]int {
	return map[string][]int{
		"ln_1.weight": {d}, "ln_1.bias": {d},
		"attn.c_attn.weight": {d, 3 * d}, "attn.c_attn.bias": {3 * d},
		"attn.c_proj.weight": {d, d}, "attn.c_proj.bias": {d},
		"ln_2.weight": {d}, "ln_2.bias": {d},
		"mlp.c_fc.weight": {d, 4 * d}, "mlp.c_fc.bias": {4 * d},
		"mlp.c_proj.weight": {4 * d, d}, "mlp.c_proj.bias": {d},
	}
}

// readGPT2 reads a GPT-2 safetensors file and returns cfg with the
// checkpoint's width and layer count; cfg.Heads must divide the width
// (safetensors files do not record it: GPT-2 124M has 12).
func readGPT2(path string, cfg Config) (Config, *SFile, error) {
	f, err := ReadSafetensorsFile(path)
	if err != nil {
		return cfg, nil, err
	}
	get := func(name string) (STensor, bool) {
		if t, ok := f.Tensors[name]; ok {
			return t, true
		}
		t, ok := f.Tensors["transformer."+name]
		return t, ok
	}
	lnf, ok := get("ln_f.weight")
	if !ok || len(lnf.Shape) != 1 || lnf.Shape[0] < 1 {
		return cfg, nil, fmt.Errorf("%s: no GPT-2 ln_f.weight of shape [width] (want a GPT-2 checkpoint: h.N.*, ln_f.*)", path)
	}
	d := lnf.Shape[0]
	layers := 0
	for _, n := range f.Names() {
		n = strings.TrimPrefix(n, "transformer.")
		if rest, ok := strings.CutPrefix(n, "h."); ok {
			if i := strings.IndexByte(rest, '.'); i > 0 {
				if l, err := strconv.Atoi(rest[:i]); err == nil && l >= 0 && l < maxLayers {
					layers = max(layers, l+1)
				}
			}
		}
	}
	cfg.Width, cfg.Layers = d, layers
	if err := cfg.Validate(); err != nil {
		return cfg, nil, fmt.Errorf("%s: GPT-2 width %d, %d layers: %v", path, d, layers, err)
	}
	shapes := gpt2Shapes(d)
	for l := range layers {
		for _, name := range slices.Sorted(maps.Keys(shapes)) {
			full := fmt.Sprintf("h.%d.%s", l, name)
			t, ok := get(full)
			if !ok {
				return cfg, nil, fmt.Errorf("%s: no tensor %s (a GPT-2 checkpoint of width %d has it)", path, full, d)
			}
			if t.DType != "F32" || !slices.Equal(t.Shape, shapes[name]) {
				return cfg, nil, fmt.Errorf("%s: tensor %s is %s%v, want F32%v", path, full, t.DType, t.Shape, shapes[name])
			}
		}
	}
	if b, ok := get("ln_f.bias"); !ok || b.DType != "F32" || !slices.Equal(b.Shape, []int{d}) {
		return cfg, nil, fmt.Errorf("%s: no F32 tensor ln_f.bias of shape [%d]", path, d)
	}
	if lnf.DType != "F32" {
		return cfg, nil, fmt.Errorf("%s: ln_f.weight is %s, want F32", path, lnf.DType)
	}
	return cfg, f, nil
}

// loadGPT2 sets the backbone's variables from the checkpoint, frozen.
func loadGPT2(ctx *context.Context, path string, f *SFile, cfg Config) error {
	set := func(name string) error {
		t, ok := f.Tensors[name]
		if !ok {
			t = f.Tensors["transformer."+name]
		}
		i := strings.LastIndexByte(name, '.')
		key := "/" + ScopeBackbone + "/" + name[:i] + "/" + name[i+1:]
		v, err := toTensor(t)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", path, name, err)
		}
		scope, vname := context.SplitScope(key)
		ctx.InAbsPath(scope).Checked(false).VariableWithValue(vname, v).SetTrainable(false)
		return nil
	}
	for l := range cfg.Layers {
		for _, name := range slices.Sorted(maps.Keys(gpt2Shapes(cfg.Width))) {
			if err := set(fmt.Sprintf("h.%d.%s", l, name)); err != nil {
				return err
			}
		}
	}
	for _, name := range []string{"ln_f.weight", "ln_f.bias"} {
		if err := set(name); err != nil {
			return err
		}
	}
	return nil
}
