package seq

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/learn"
)

// traceFile returns the path of a dataset trace under
// shared/data/starlink-iperf3/traces in the nearest parent directory that
// has it (../shared beside the module root; a git worktree sits deeper).
func traceFile(t testing.TB, name string) string {
	t.Helper()
	rel := filepath.Join("shared/data/starlink-iperf3/traces", name)
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if p := filepath.Join(dir, rel); fileExists(p) {
			return p
		}
	}
	t.Skipf("skipping: real Starlink trace %s not found beside the module (../shared/data)", rel)
	return ""
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// realSequences reads the dataset's Sydney BBR traces (downlink and
// uplink, 300 one-second intervals each) into sequences.
func realSequences(t testing.TB) []Sequence {
	t.Helper()
	p := learn.NewPool()
	for _, name := range []string{"downlink_Sydney_bbr_run1.csv", "uplink_Sydney_bbr_run1.csv"} {
		path := traceFile(t, name)
		run, err := iperf.ReadTraceFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dir := "downlink-sequential"
		if name[0] == 'u' {
			dir = "uplink-sequential"
		}
		if err := p.AddFlow(learn.Source{Location: "sydney", Stream: dir, Flow: name}, run.Flows()[0]); err != nil {
			t.Fatal(err)
		}
	}
	return Sequences(p.Rows)
}

// tinyConfig trains in a second or two.
func tinyConfig() Config {
	return Config{Window: 4, FeatureHidden: 4, Width: 16, Layers: 1, Heads: 2, Backbone: BackboneOwn}
}

// namedModel is an untrained model and the backbone it stands for in
// test messages.
type namedModel struct {
	name string
	m    *Model
}

// backboneModels is an untrained model (seed 1) of each backbone the
// plain-Go pass serves: the default configuration, and a tiny GPT-2
// (width 16, 2 layers) with rank-4 LoRA adapters.
func backboneModels(t testing.TB) []namedModel {
	t.Helper()
	var out []namedModel
	for _, tc := range []struct {
		name string
		cfg  Config
		gpt2 string
	}{
		{"default", DefaultConfig(), ""},
		{"gpt2-lora", gpt2Config(4), writeTinyGPT2(t, 16, 2)},
	} {
		m, err := NewModel(tc.cfg, 1, tc.gpt2)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, namedModel{tc.name, m})
	}
	return out
}

func tinyTrain() TrainConfig {
	tc := DefaultTrainConfig()
	tc.Epochs, tc.Batch, tc.Accumulate, tc.CheckpointEvery = 2, 20, 2, 4
	return tc
}

func modelBytes(t testing.TB, m *Model) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := m.WriteModel(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
