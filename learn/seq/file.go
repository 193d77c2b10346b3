package seq

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// Model and checkpoint files are safetensors files whose metadata names
// our format, its version and what the file is.
const (
	FileFormat  = "leolab-seq"
	FileVersion = "1"
	kindModel   = "model"
	kindCkpt    = "checkpoint"
)

// WriteModel writes the model file: the model's variables and its
// config, target return and training record as metadata. The bytes are a
// deterministic function of the weights.
func (m *Model) WriteModel(w io.Writer) error {
	vars, err := exportVars(m.ctx, isModelVar)
	if err != nil {
		return fmt.Errorf("seq: %w", err)
	}
	cfg, err := json.Marshal(m.Config)
	if err != nil {
		return err
	}
	meta := map[string]string{"format": FileFormat, "version": FileVersion, "kind": kindModel, "config": string(cfg),
		"target_return": strconv.FormatFloat(float64(m.Target), 'g', -1, 32)}
	if len(m.Training) > 0 {
		meta["training"] = string(m.Training)
	}
	return WriteSafetensors(w, meta, vars)
}

// SaveModel writes the model file to path.
func (m *Model) SaveModel(path string) error {
	var buf bytes.Buffer
	if err := m.WriteModel(&buf); err != nil {
		return err
	}
	return writeAtomic(path, buf.Bytes())
}

// writeAtomic replaces path by data through a temporary file and a
// rename, so a kill mid-write leaves the old file.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// checkMeta checks a file's format, version and kind.
func checkMeta(path string, meta map[string]string, kind string) error {
	if meta["format"] != FileFormat {
		return fmt.Errorf("%s: not a leolab seq %s (safetensors metadata format %q, want %q)", path, kind, meta["format"], FileFormat)
	}
	if meta["version"] != FileVersion {
		return fmt.Errorf("%s: seq %s file version %q, this leolab reads version %s", path, kind, meta["version"], FileVersion)
	}
	if meta["kind"] != kind {
		return fmt.Errorf("%s: a seq %s file, want a %s", path, meta["kind"], kind)
	}
	return nil
}

// LoadModel reads a model file: its config is validated, the model
// built from it, and every variable must be in the file with the shape
// the config gives, and nothing else.
func LoadModel(path string) (*Model, error) {
	f, err := ReadSafetensorsFile(path)
	if err != nil {
		return nil, err
	}
	if err := checkMeta(path, f.Meta, kindModel); err != nil {
		return nil, err
	}
	cfg, target, err := modelMeta(path, f.Meta)
	if err != nil {
		return nil, err
	}
	m, err := newModel(cfg, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.Target = float32(target)
	if t := f.Meta["training"]; t != "" {
		m.Training = json.RawMessage(t)
	}
	if err := m.initVars(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := m.setFrom(path, f, true); err != nil {
		return nil, err
	}
	return m, nil
}

// modelMeta reads a model file's config and target return.
func modelMeta(path string, meta map[string]string) (Config, float64, error) {
	var cfg Config
	dec := json.NewDecoder(bytes.NewReader([]byte(meta["config"])))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, 0, fmt.Errorf("%s: metadata config: %v", path, err)
	}
	if err := cfg.Validate(); err != nil {
		return cfg, 0, fmt.Errorf("%s: metadata config: %v", path, err)
	}
	target, err := strconv.ParseFloat(meta["target_return"], 32)
	if err != nil || math.IsNaN(target) || math.IsInf(target, 0) {
		return cfg, 0, fmt.Errorf("%s: metadata target_return %q: want a finite number", path, meta["target_return"])
	}
	return cfg, target, nil
}

// setFrom sets m's variables from file f. Every model variable must be
// there with its shape and dtype. A model file (exact) holds nothing
// else; a checkpoint also holds the optimizer's and the loop's variables,
// which are set (created) as they are.
func (m *Model) setFrom(path string, f *SFile, exact bool) error {
	want := map[string]bool{}
	for v := range m.ctx.IterVariables() {
		k := varKey(v)
		if !isModelVar(k) {
			continue
		}
		want[k] = true
		st, ok := f.Tensors[k]
		if !ok {
			return fmt.Errorf("%s: no tensor %s (the config %s needs it)", path, k, configString(m.Config))
		}
		if !slices.Equal(st.Shape, v.Shape().Dimensions) || st.DType != stDTypes[v.DType()] {
			return fmt.Errorf("%s: tensor %s is %s%v, want %s%v for config %s", path, k, st.DType, st.Shape,
				stDTypes[v.DType()], v.Shape().Dimensions, configString(m.Config))
		}
	}
	for _, k := range f.Names() {
		if !want[k] && (exact || isModelVar(k)) {
			return fmt.Errorf("%s: tensor %s is not part of a model of config %s", path, k, configString(m.Config))
		}
		t, err := toTensor(f.Tensors[k])
		if err != nil {
			return fmt.Errorf("%s: tensor %s: %w", path, k, err)
		}
		if err := setVar(m.ctx, k, t); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

func configString(c Config) string {
	b, _ := json.Marshal(c)
	return string(b)
}

// saveCheckpoint writes every variable of the run (model, optimizer,
// step counters) and the loop position.
func saveCheckpoint(m *Model, path, fp string, st trainState) error {
	vars, err := exportVars(m.ctx, func(string) bool { return true })
	if err != nil {
		return fmt.Errorf("seq: checkpoint: %w", err)
	}
	meta := st.meta()
	meta["format"], meta["version"], meta["kind"], meta["run"] = FileFormat, FileVersion, kindCkpt, fp
	var buf bytes.Buffer
	if err := WriteSafetensors(&buf, meta, vars); err != nil {
		return fmt.Errorf("seq: checkpoint: %w", err)
	}
	if err := writeAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("seq: checkpoint: %w", err)
	}
	return nil
}

// loadCheckpoint restores a run from path; the checkpoint must have been
// written by a run of the same config, hyperparameters and data.
func loadCheckpoint(m *Model, path, fp string) (trainState, error) {
	f, err := ReadSafetensorsFile(path)
	if err != nil {
		return trainState{}, err
	}
	if err := checkMeta(path, f.Meta, kindCkpt); err != nil {
		return trainState{}, err
	}
	if f.Meta["run"] != fp {
		return trainState{}, fmt.Errorf("%s: checkpoint of another run (config, hyperparameters or data differ): it has %q, this run is %q; "+
			"delete it or train with the same flags and pools", path, f.Meta["run"], fp)
	}
	st, err := parseState(f.Meta)
	if err != nil {
		return trainState{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := m.setFrom(path, f, false); err != nil {
		return trainState{}, err
	}
	return st, nil
}
