package seq

import (
	"fmt"
	"maps"
	"slices"

	"github.com/leolab/leolab/cc/bbr"
	"github.com/leolab/leolab/cc/lmbbr"
)

// The sequence model's file format is lmbbr's to load: a scenario's
// params {model: FILE} then runs it in closed loop. Loading reads the
// safetensors file into the plain-Go pass (forward.go) without building
// a gomlx graph, so a run pays milliseconds for it.
func init() {
	lmbbr.Register(FileFormat, lmbbr.Format{Version: FileVersion, Load: loadGainModel})
}

// GainModel is a loaded sequence model as lmbbr runs it.
type GainModel struct {
	Config Config
	Target float32
	vars   map[string][]float32
}

func loadGainModel(file string, data []byte) (lmbbr.GainModel, error) {
	f, err := ParseSafetensors(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return gainModelOf(file, f)
}

// LoadGainModel reads a model file for inference only.
func LoadGainModel(path string) (*GainModel, error) {
	f, err := ReadSafetensorsFile(path)
	if err != nil {
		return nil, err
	}
	return gainModelOf(path, f)
}

func gainModelOf(file string, f *SFile) (*GainModel, error) {
	if err := checkMeta(file, f.Meta, kindModel); err != nil {
		return nil, err
	}
	cfg, target, err := modelMeta(file, f.Meta)
	if err != nil {
		return nil, err
	}
	want := VarShapes(cfg)
	vars := map[string][]float32{}
	for _, k := range slices.Sorted(maps.Keys(want)) {
		st, ok := f.Tensors[k]
		if !ok {
			return nil, fmt.Errorf("%s: no tensor %s (the config %s needs it)", file, k, configString(cfg))
		}
		if st.DType != "F32" || !slices.Equal(st.Shape, want[k]) {
			return nil, fmt.Errorf("%s: tensor %s is %s%v, want F32%v for config %s", file, k, st.DType, st.Shape, want[k], configString(cfg))
		}
		if vars[k], err = st.Float32s(); err != nil {
			return nil, fmt.Errorf("%s: tensor %s: %w", file, k, err)
		}
	}
	for _, k := range f.Names() {
		if _, ok := want[k]; !ok {
			return nil, fmt.Errorf("%s: tensor %s is not part of a model of config %s", file, k, configString(cfg))
		}
	}
	return &GainModel{Config: cfg, Target: float32(target), vars: vars}, nil
}

// Forward builds the model's plain-Go pass.
func (g *GainModel) Forward() (*Forward, error) { return newForward(g.Config, g.Target, g.vars) }

// NewPolicy implements lmbbr.GainModel: one online policy per flow.
func (g *GainModel) NewPolicy(fl lmbbr.FlowInfo) (bbr.GainPolicy, error) {
	f, err := g.Forward()
	if err != nil {
		return nil, err
	}
	return NewOnline(f, fl.Downlink), nil
}

// VarShapes are the variables of a model of cfg with their shapes, as
// model.go creates them and model files hold them.
func VarShapes(cfg Config) map[string][]int {
	d, w, hd := cfg.Width, cfg.Window, cfg.FeatureHidden
	out := map[string][]int{
		"/encoder/timestep/table": {w, d}, "/encoder/action/table": {NumActions + 1, d},
		"/encoder/return/weight": {1, d}, "/encoder/return/bias": {d},
		"/encoder/features/weight": {NumFeatures, hd}, "/encoder/features/bias": {NumFeatures, hd},
		"/encoder/project/weight": {NumFeatures * hd, d}, "/encoder/project/bias": {d},
		"/head/weight": {d, NumActions}, "/head/bias": {NumActions},
	}
	for _, ln := range []string{"/encoder/ln", "/encoder/ln_in", "/backbone/ln_f"} {
		out[ln+"/weight"], out[ln+"/bias"] = []int{d}, []int{d}
	}
	for l := range cfg.Layers {
		for name, shape := range gpt2Shapes(d) {
			i := len(name) - len(".weight")
			if name[len(name)-5:] == ".bias" {
				i = len(name) - len(".bias")
			}
			key := fmt.Sprintf("/backbone/h.%d.%s/%s", l, name[:i], name[i+1:])
			out[key] = shape
			if cfg.LoRARank > 0 && name[i+1:] == "weight" && contains(cfg.LoRATargets, name[:i]) {
				lk := fmt.Sprintf("/lora/h.%d.%s/", l, name[:i])
				out[lk+"A"], out[lk+"B"] = []int{shape[0], cfg.LoRARank}, []int{cfg.LoRARank, shape[1]}
			}
		}
	}
	return out
}
