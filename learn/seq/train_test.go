package seq

import (
	"bytes"
	gocontext "context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/learn"
)

func TestSequences(t *testing.T) {
	seqs := realSequences(t)
	if len(seqs) != 2 || len(seqs[0].Steps) != 300 {
		t.Fatalf("%d sequences, first of %d steps; want 2 of 300", len(seqs), len(seqs[0].Steps))
	}
	for _, s := range seqs {
		for i, st := range s.Steps {
			if !learn.IsFeasible(st.Phase, learn.Actions[st.Action]) {
				t.Fatalf("%s step %d: label %g not feasible in %v", s.Source.Flow, i, learn.Actions[st.Action], st.Phase)
			}
			for k, x := range st.X {
				// Every feature is scaled to about [0, 1]; RTT (÷100 ms)
				// may reach a few units on the slowest paths.
				if !(x >= 0 && x <= 5) {
					t.Fatalf("%s step %d: feature %s = %g outside [0, 5]", s.Source.Flow, i, FeatureNames[k], x)
				}
			}
		}
		// The last step's return-to-go is its own reward; the eq. 16
		// reward is at most 1 (min(g, 1) less non-negative penalties).
		if r := s.Steps[len(s.Steps)-1].Return; r > 1 {
			t.Errorf("%s: last return %g > 1", s.Source.Flow, r)
		}
	}
}

// TestTrainDeterministic: the same seed gives a byte-identical model file,
// another seed another one; and training lowers the loss.
func TestTrainDeterministic(t *testing.T) {
	seqs := realSequences(t)
	var curves [2]bytes.Buffer
	run := func(seed uint64, c *bytes.Buffer) []byte {
		tc := tinyTrain()
		tc.Seed = seed
		m, err := Train(gocontext.Background(), tinyConfig(), tc, seqs, TrainOptions{Curves: c})
		if err != nil {
			t.Fatal(err)
		}
		return modelBytes(t, m)
	}
	a, b := run(1, &curves[0]), run(1, &curves[1])
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with seed 1 wrote different model files")
	}
	if curves[0].String() != curves[1].String() {
		t.Fatalf("curves differ:\n%s\n%s", curves[0].String(), curves[1].String())
	}
	if c := run(2, &bytes.Buffer{}); bytes.Equal(a, c) {
		t.Fatal("seeds 1 and 2 wrote the same model")
	}
	lines := strings.Split(strings.TrimSpace(curves[0].String()), "\n")
	if len(lines) != 3 || lines[0]+"\n" != CurveHeader {
		t.Fatalf("curves:\n%s", curves[0].String())
	}
	t.Logf("curves:\n%s", curves[0].String())
}

// TestResume kills a run mid-epoch (cancelling its context), resumes it
// from the checkpoint, and gets the uninterrupted run's weights and
// curves.
func TestResume(t *testing.T) {
	seqs := realSequences(t)
	dir := t.TempDir()
	tc := tinyTrain()
	var full bytes.Buffer
	ref, err := Train(gocontext.Background(), tinyConfig(), tc, seqs, TrainOptions{Checkpoint: filepath.Join(dir, "a.ckpt"), Curves: &full})
	if err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(dir, "b.ckpt")
	ctx, cancel := gocontext.WithCancel(gocontext.Background())
	defer cancel()
	// 600 windows / 40 per step = 15 steps per epoch: stop at step 6
	// (after the checkpoint at step 4, so the last steps are replayed
	// from the cancellation's own checkpoint, not the periodic one).
	_, err = Train(ctx, tinyConfig(), tc, seqs, TrainOptions{Checkpoint: ckpt, AfterStep: func(s int) {
		if s == 6 {
			cancel()
		}
	}})
	if !errors.Is(err, gocontext.Canceled) {
		t.Fatalf("cancelled run: err %v, want context.Canceled", err)
	}
	var resumed bytes.Buffer
	steps := 0
	m, err := Train(gocontext.Background(), tinyConfig(), tc, seqs, TrainOptions{Checkpoint: ckpt, Curves: &resumed,
		AfterStep: func(s int) {
			if steps == 0 && s != 7 {
				t.Errorf("resumed at global step %d, want 7", s)
			}
			steps++
		}})
	if err != nil {
		t.Fatal(err)
	}
	if steps != 30-6 {
		t.Errorf("resumed run took %d steps, want 24", steps)
	}
	if !bytes.Equal(modelBytes(t, ref), modelBytes(t, m)) {
		t.Fatal("resumed run's weights differ from the uninterrupted run's")
	}
	if full.String() != resumed.String() {
		t.Fatalf("curves differ:\n%s\n%s", full.String(), resumed.String())
	}
	// A checkpoint of another run is refused, naming the file.
	tc2 := tc
	tc2.Seed = 9
	_, err = Train(gocontext.Background(), tinyConfig(), tc2, seqs, TrainOptions{Checkpoint: ckpt})
	if err == nil || !strings.Contains(err.Error(), ckpt) || !strings.Contains(err.Error(), "another run") {
		t.Fatalf("checkpoint of another run: err %v", err)
	}
}

func TestModelFileRoundTrip(t *testing.T) {
	seqs := realSequences(t)
	tc := tinyTrain()
	tc.Epochs = 1
	m, err := Train(gocontext.Background(), tinyConfig(), tc, seqs, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := m.SaveModel(path); err != nil {
		t.Fatal(err)
	}
	m2, err := LoadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(modelBytes(t, m), modelBytes(t, m2)) {
		t.Fatal("loaded model writes different bytes")
	}
	e1, err := m.Evaluate(seqs, nil)
	if err != nil {
		t.Fatal(err)
	}
	e2, err := m2.Evaluate(seqs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e1.Total.CESum != e2.Total.CESum || e1.Total.Correct != e2.Total.Correct {
		t.Fatalf("loaded model evaluates differently: %v vs %v", e1.Total, e2.Total)
	}
}
