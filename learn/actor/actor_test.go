package actor

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/cc"
)

const dim = 6

// twoLayer is an actor computed by hand: hidden h0 = ReLU(s0),
// h1 = ReLU(−s1 + 0.5), output tanh(0.5·h0 + 2·h1 − 0.1).
func twoLayer() []Layer {
	w := make([]float32, 2*dim)
	w[0], w[dim+1] = 1, -1
	return []Layer{
		{In: dim, Out: 2, W: w, B: []float32{0, 0.5}},
		{In: 2, Out: 1, W: []float32{0.5, 2}, B: []float32{-0.1}},
	}
}

func TestActorAct(t *testing.T) {
	a, err := New("test", dim, twoLayer())
	if err != nil {
		t.Fatal(err)
	}
	s := make([]float32, dim)
	s[0], s[1] = 0.8, 0.2
	want := math.Tanh(0.5*0.8 + 2*0.3 - 0.1)
	if got := a.Act(s); math.Abs(float64(got)-want) > 1e-6 {
		t.Fatalf("Act = %v, want %v", got, want)
	}
	s[0] = -3 // ReLU clips h0
	want = math.Tanh(2*0.3 - 0.1)
	if got := a.Act(s); math.Abs(float64(got)-want) > 1e-6 {
		t.Fatalf("Act = %v, want %v", got, want)
	}
	if c := a.Clone(); c.Act(s) != a.Act(s) || c.Dim() != dim || &c.buf[0][0] == &a.buf[0][0] {
		t.Fatal("clone differs or shares scratch")
	}
}

func enc(f File) []byte { b, _ := json.Marshal(f); return b }

// Files under the current name and under the older Orca-only name load
// alike; the current name is what NewFile writes.
func TestFormatNames(t *testing.T) {
	f := NewFile(twoLayer(), map[string]string{"seed": "1"})
	if f.Format != "leolab-actor" || f.Version != 1 {
		t.Fatalf("NewFile writes %q version %d", f.Format, f.Version)
	}
	s := make([]float32, dim)
	s[0] = 0.8
	var acts []float32
	for _, name := range []string{Format, LegacyFormat} {
		f.Format = name
		a, err := Parse(name, dim, enc(f))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		acts = append(acts, a.Act(s))
	}
	if acts[0] != acts[1] {
		t.Fatalf("the two names load different actors: %v", acts)
	}
}

// Bad files are refused with what is wrong.
func TestParseErrors(t *testing.T) {
	one := []Layer{{In: dim, Out: 1, W: make([]float32, dim), B: []float32{0}}}
	nanBias := []Layer{{In: dim, Out: 1, W: make([]float32, dim), B: []float32{float32(math.NaN())}}}
	infWeight := []Layer{{In: 1, Out: 1, W: []float32{float32(math.Inf(1))}, B: []float32{0}}}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"syntax":  {[]byte("{"), "unexpected end"},
		"format":  {enc(File{Format: "x", Version: 1, Layers: one}), `format "x"`},
		"version": {enc(File{Format: Format, Version: 2, Layers: one}), "version 2"},
		"input":   {enc(File{Format: Format, Version: 1, Layers: []Layer{{In: 3, Out: 1, W: make([]float32, 3), B: []float32{0}}}}), "layers[0]"},
		"output":  {enc(File{Format: Format, Version: 1, Layers: []Layer{{In: dim, Out: 2, W: make([]float32, 2*dim), B: []float32{0, 0}}}}), "output width 2"},
		"nolayer": {enc(File{Format: Format, Version: 1}), "layers: none"},
		"huge":    {[]byte(`{"format":"leolab-actor","version":1,"layers":[{"in":6,"out":100000000}]}`), "layers[0]"},
	} {
		if _, err := Parse(name, dim, c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one naming %q", name, err, c.want)
		}
	}
	if _, err := New("nan", dim, nanBias); err == nil || !strings.Contains(err.Error(), "layers[0].b") {
		t.Errorf("NaN bias: %v", err)
	}
	if _, err := New("inf", 1, infWeight); err == nil || !strings.Contains(err.Error(), "layers[0].w") {
		t.Errorf("infinite weight: %v", err)
	}
	if _, err := New("dim", 0, one); err == nil || !strings.Contains(err.Error(), "input size 0") {
		t.Errorf("input size 0: %v", err)
	}
}

// FromConfig takes the model file named in the config, naming the
// scheme, the parameter and the path when it cannot; without one, the
// embedded actor.
func TestFromConfig(t *testing.T) {
	emb := enc(NewFile(twoLayer(), nil))
	a, err := FromConfig(cc.Config{}, "model", "test", dim, "embedded.json", emb)
	if err != nil || a.Dim() != dim {
		t.Fatalf("embedded: %v", err)
	}
	path := filepath.Join(t.TempDir(), "a.json")
	if err := os.WriteFile(path, enc(File{Format: LegacyFormat, Version: 1, Layers: twoLayer()}), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := FromConfig(cc.Config{Files: map[string]string{"model": path}}, "model", "test", dim, "embedded.json", emb); err != nil {
		t.Errorf("legacy model file: %v", err)
	}
	for _, p := range []string{"/nonexistent/a.json", path} {
		_, err := FromConfig(cc.Config{Files: map[string]string{"model": p}}, "model", "test", dim+1, "embedded.json", emb)
		if err == nil || !strings.Contains(err.Error(), "test: model: ") || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v, want an error naming scheme, parameter and path", p, err)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a broken embedded actor did not panic")
		}
	}()
	FromConfig(cc.Config{}, "model", "test", dim+1, "embedded.json", emb)
}

func BenchmarkAct(b *testing.B) {
	a, err := New("bench", dim, twoLayer())
	if err != nil {
		b.Fatal(err)
	}
	s := make([]float32, dim)
	b.ReportAllocs()
	for b.Loop() {
		a.Act(s)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(enc(NewFile(twoLayer(), nil)))
	f.Add([]byte(`{"format":"leolab-orca-actor","version":1,"layers":[{"in":6,"out":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Parse("fuzz", dim, data)
		if err == nil {
			a.Act(make([]float32, dim))
		}
	})
}
