package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/learn/seq"
)

// seqPool is the synthetic pool with rewards, 60 records a city: enough
// windows for the sequence policy.
func seqPool(t *testing.T) string {
	t.Helper()
	return syntheticPool(t, t.TempDir(), 60, true)
}

func TestLearnTrainSeq(t *testing.T) {
	in := seqPool(t)
	dir := t.TempDir()
	out, curves := filepath.Join(dir, "m.safetensors"), filepath.Join(dir, "c.csv")
	args := []string{in, "--model", "seq", "--holdout", "tokyo", "--epochs", "3", "--width", "16", "--layers", "1",
		"--window", "4", "--out", out, "--curves", curves, "--checkpoint", filepath.Join(dir, "ck")}
	_, stderr, err := learnTrain(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{"seq epoch 3/3", "trainable", "held-out tokyo UP: n 12", "held-out tokyo DOWN: n 6"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	m, err := seq.LoadModel(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Config.Width != 16 || m.Config.Window != 4 {
		t.Errorf("model config %+v", m.Config)
	}
	c, err := os.ReadFile(curves)
	if err != nil || !strings.HasPrefix(string(c), seq.CurveHeader) || strings.Count(string(c), "\n") != 4 {
		t.Errorf("curves (%v):\n%s", err, c)
	}
	// Re-running with the finished checkpoint resumes at the end: the
	// same model.
	first, _ := os.ReadFile(out)
	if _, stderr, err := learnTrain(t, args...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if again, _ := os.ReadFile(out); !bytes.Equal(first, again) {
		t.Error("resuming a finished run changed the model")
	}
	for _, bad := range [][]string{
		{in, "--model", "tree", "--out", out},
		{in, "--model", "seq"},
		{in, "--model", "seq", "--out", out, "--heads", "3"},
		{in, "--model", "seq", "--out", out, "--lora-rank", "4"},
		{in, "--model", "seq", "--out", out, "--backbone", "gpt2"},
		{in, "--model", "seq", "--out", out, "--batch", "0"},
	} {
		if _, _, err := learnTrain(t, bad...); err == nil {
			t.Errorf("learn train %v was accepted", bad)
		}
	}
}
