package lmbbr_test

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/cc/lmbbr"
	"github.com/leolab/leolab/internal/simtest"
	"github.com/leolab/leolab/scenario"
)

// writeModel writes the embedded model, changed by edit, as a JSON file
// in dir.
func writeModel(t *testing.T, dir, name string, edit func(*lmbbr.Model)) string {
	t.Helper()
	m := lmbbr.DefaultModel()
	if edit != nil {
		edit(m)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runFile writes a scenario file into dir (so relative paths resolve
// there) and simulates it.
func runFile(t *testing.T, dir, flow string) (mbps float64, retrans int64, up float64) {
	t.Helper()
	text := "version: 1\nname: lm\nduration: 20s\nseed: 3\ninterval: 1s\n" +
		"path: {profile: fixed, rate: 100Mbps, rtt: 50ms, queue: {limit_packets: 417}}\nflows: [" + flow + "]\n"
	p := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Spec(); err != nil {
		t.Fatal(err)
	}
	f := simtest.RunFile(t, p).Flows[0]
	last := f.Intervals[len(f.Intervals)-1].CC
	return f.ThroughputMbps, f.Retransmits, last["lm_up_gain_mean"]
}

// A model file named in a scenario (relative to it) is the model lmbbr
// runs: the embedded model's weights from a file give the embedded run to
// the bit; a model that always answers 1.25 in UP makes the policy's mean
// UP gain 1.25 and changes the run.
func TestModelFileInScenario(t *testing.T) {
	dir := t.TempDir()
	writeModel(t, dir, "same.json", nil)
	writeModel(t, dir, "hard.json", func(m *lmbbr.Model) {
		up := m.Phases[lmbbr.PhaseUp]
		for k := range up.Weights {
			up.Weights[k] = make([]float64, lmbbr.NumFeatures)
		}
		up.Weights[len(up.Weights)-1][0] = 10 // the bias of the largest gain
	})
	e1, e2, eUp := runFile(t, dir, "{cca: lmbbr}")
	s1, s2, sUp := runFile(t, dir, "{cca: lmbbr, params: {model: same.json, downlink: 1}}")
	if e1 != s1 || e2 != s2 || eUp != sUp {
		t.Errorf("embedded model %.3f Mbit/s %d retransmits UP %.4f; the same weights from a file %.3f %d %.4f",
			e1, e2, eUp, s1, s2, sUp)
	}
	h1, h2, hUp := runFile(t, dir, "{cca: lmbbr, params: {model: hard.json}}")
	if hUp != 1.25 {
		t.Errorf("a model answering 1.25: policy mean UP gain %g", hUp)
	}
	if eUp == 1.25 || (h1 == e1 && h2 == e2) {
		t.Errorf("the 1.25 model ran as the embedded one: %.3f Mbit/s %d retransmits (embedded %.3f %d, UP %.4f)", h1, h2, e1, e2, eUp)
	}
	t.Logf("embedded: %.6f Mbit/s %d retransmits, UP gain %.3f; always 1.25: %.6f Mbit/s %d retransmits", e1, e2, eUp, h1, h2)
}

// Bad model files and file parameters are the scenario's errors, naming
// the file and what is allowed.
func TestModelFileRejects(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	st := func(meta string) []byte {
		h := []byte(`{"__metadata__":` + meta + `}`)
		return append(binary.LittleEndian.AppendUint64(nil, uint64(len(h))), h...)
	}
	write("v2.json", []byte(`{"format":"leolab-linear","version":2}`))
	write("other.json", []byte(`{"format":"onnx","version":1}`))
	write("noformat.json", []byte(`{"version":1,"features":[]}`))
	write("text.bin", []byte("hello world, not a model"))
	write("st.safetensors", st(`{"format":"leolab-gpt9","version":"1"}`))
	write("st-nometa.safetensors", st(`{}`))
	writeModel(t, dir, "shape.json", func(m *lmbbr.Model) { m.Phases[lmbbr.PhaseUp].Weights[0] = []float64{1, 2} })
	for _, tc := range []struct{ flow, want string }{
		{"{cca: lmbbr, params: {model: v2.json}}", `v2.json: leolab-linear file version "2", this leolab reads version 1`},
		{"{cca: lmbbr, params: {model: other.json}}", `other.json: format "onnx" is not known to this leolab (allowed: leolab-linear version 1`},
		{"{cca: lmbbr, params: {model: noformat.json}}", `noformat.json: a JSON document without a "format" field (allowed: leolab-linear`},
		{"{cca: lmbbr, params: {model: text.bin}}", "text.bin: neither a JSON model nor a safetensors file"},
		{"{cca: lmbbr, params: {model: st.safetensors}}", `st.safetensors: format "leolab-gpt9" is not known`},
		{"{cca: lmbbr, params: {model: st-nometa.safetensors}}", "st-nometa.safetensors: a safetensors file whose metadata names no format"},
		{"{cca: lmbbr, params: {model: shape.json}}", "shape.json: lmbbr model: UP: weight row 0 has 2 values, want 4"},
		{"{cca: lmbbr, params: {model: missing.json}}", "missing.json: no such file"},
		{"{cca: lmbbr, params: {downlink: 2}}", "params.downlink 2 (allowed: 1 downlink, 0 uplink)"},
		{"{cca: lmbbr, params: {weights: w.json}}", `flows[0].params.weights: "` + filepath.Join(dir, "w.json") + `" is not a number, and lmbbr has no file parameter weights (file parameters: model)`},
		{"{cca: cubic, params: {model: x.json}}", "cubic has no file parameter model (file parameters: none)"},
	} {
		text := "version: 1\nname: lm\nduration: 10s\npath: {profile: fixed, rate: 10Mbps, rtt: 20ms}\nflows: [" + tc.flow + "]\n"
		p := write("s.yaml", []byte(text))
		_, err := scenario.Load(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.flow, err, tc.want)
		}
	}
}

// Load never panics: any bytes are a model or an error.
func FuzzLoad(f *testing.F) {
	emb, err := json.Marshal(lmbbr.DefaultModel())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(emb)
	f.Add([]byte(`{"format":"leolab-linear","version":1}`))
	f.Add([]byte(`{"format":"x","version":"2"}`))
	h := []byte(`{"__metadata__":{"format":"leolab-seq","version":"1"}}`)
	f.Add(append(binary.LittleEndian.AppendUint64(nil, uint64(len(h))), h...))
	f.Add(binary.LittleEndian.AppendUint64(nil, 1<<62))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := lmbbr.Load("fuzz", data)
		if err == nil && m == nil {
			t.Fatal("no model and no error")
		}
		if err != nil && !strings.Contains(err.Error(), "fuzz") {
			t.Fatalf("error %q does not name the file", err)
		}
	})
}
