package orca

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// A two-layer actor computed by hand: hidden ReLU(w·s + b), output
// tanh(v·h + c).
func TestActorAct(t *testing.T) {
	w := make([]float32, 2*StateDim)
	w[0], w[StateDim+1] = 1, -1 // h0 = s0, h1 = ReLU(−s1 + 0.5)
	a, err := NewActor("test", []Layer{
		{In: StateDim, Out: 2, W: w, B: []float32{0, 0.5}},
		{In: 2, Out: 1, W: []float32{0.5, 2}, B: []float32{-0.1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := make([]float32, StateDim)
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
}

// Bad files are refused with what is wrong.
func TestParseActorErrors(t *testing.T) {
	good := ActorFile{Format: ActorFormat, Version: ActorVersion, Layers: []Layer{{In: StateDim, Out: 1, W: make([]float32, StateDim), B: []float32{0}}}}
	enc := func(f ActorFile) []byte { b, _ := json.Marshal(f); return b }
	if _, err := ParseActor("ok", enc(good)); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"syntax":  {[]byte("{"), "unexpected end"},
		"format":  {enc(ActorFile{Format: "x", Version: 1, Layers: good.Layers}), "format"},
		"input":   {enc(ActorFile{Format: ActorFormat, Version: 1, Layers: []Layer{{In: 3, Out: 1, W: make([]float32, 3), B: []float32{0}}}}), "layers[0]"},
		"output":  {enc(ActorFile{Format: ActorFormat, Version: 1, Layers: []Layer{{In: StateDim, Out: 2, W: make([]float32, 2*StateDim), B: []float32{0, 0}}}}), "output width 2"},
		"nolayer": {enc(ActorFile{Format: ActorFormat, Version: 1}), "layers: none"},
		"huge":    {[]byte(`{"format":"leolab-orca-actor","version":1,"layers":[{"in":70,"out":100000000}]}`), "layers[0]"},
	} {
		if _, err := ParseActor(name, c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one naming %q", name, err, c.want)
		}
	}
}

// The embedded actor loads.
func TestDefaultActor(t *testing.T) {
	if a := DefaultActor(); a.Act(make([]float32, StateDim)) != a.Act(make([]float32, StateDim)) {
		t.Fatal("embedded actor is not deterministic")
	}
}

func BenchmarkActorAct(b *testing.B) {
	a := DefaultActor()
	s := make([]float32, StateDim)
	for i := range s {
		s[i] = float32(i%7) / 7
	}
	b.ReportAllocs()
	for b.Loop() {
		a.Act(s)
	}
}

func FuzzParseActor(f *testing.F) {
	f.Add(DefaultActorFile())
	f.Add([]byte(`{"format":"leolab-orca-actor","version":1,"layers":[{"in":70,"out":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseActor("fuzz", data)
		if err == nil {
			a.Act(make([]float32, StateDim))
		}
	})
}
