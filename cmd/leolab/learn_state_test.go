package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/learn"
)

// cfPoolFile writes a counterfactual pool of sydney and tokyo whose
// labels follow cwnd alone (lowest gain at 1–2 MB, highest at 3–4 MB;
// rate, RTT and loss constant).
func cfPoolFile(t *testing.T, dir string) string {
	t.Helper()
	return cwndPoolFile(t, filepath.Join(dir, "cf.jsonl"), []string{"sydney", "tokyo"}, func(r *learn.Row, g []float64) {
		k := 0
		if r.CWnd > 2_000_000 {
			k = len(g) - 1
		}
		r.Action, r.GainRewards = g[k], make([]float64, len(g))
		r.GainRewards[k] = 1
	})
}

// cwndPoolFile writes to path a counterfactual pool of 40 rows per
// location whose cwnd cycles through 1–4 MB (rate, RTT and loss constant),
// two UP and two DOWN decisions in every 8 rows; label sets each
// decision's action and reward curve over its feasible gains g.
func cwndPoolFile(t *testing.T, path string, locs []string, label func(r *learn.Row, g []float64)) string {
	t.Helper()
	p := learn.NewPool()
	for _, loc := range locs {
		src := learn.Source{Location: loc, Stream: "downlink-sim", Flow: loc + " bbr"}
		for i := range 40 {
			r := learn.Row{Source: src, Index: i, Sample: learn.Sample{T: time.Duration(i+1) * time.Second, Throughput: 1e8,
				CWnd: 1_000_000 * (1 + i%4), RTT: 40 * time.Millisecond}, Phase: learn.Cruise, Action: 1, Mapped: 1}
			switch i % 8 {
			case 1, 6:
				r.Phase = learn.Up
			case 3, 4:
				r.Phase = learn.Down
			}
			if r.Phase != learn.Cruise {
				g := learn.Feasible(r.Phase)
				label(&r, g)
				r.Mapped, r.LabelSource = g[0], learn.LabelCounterfactual
			}
			p.Rows = append(p.Rows, r)
		}
	}
	return writePoolFile(t, path, p)
}

// writePoolFile writes p as JSONL to path and returns path.
func writePoolFile(t *testing.T, path string, p *learn.Pool) string {
	t.Helper()
	var buf bytes.Buffer
	if err := p.WriteJSONL(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// --features all trains the full-state model: on the held-out city it gets
// every cwnd-driven label the lmbbr features cannot see; the output is its
// own JSON, identical run to run.
func TestLearnTrainFeaturesAll(t *testing.T) {
	in := cfPoolFile(t, t.TempDir())
	out, stderr, err := learnTrain(t, in, "--labels", "counterfactual", "--features", "all", "--holdout", "tokyo")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{"held-out tokyo (features all) UP: 10 rows, accuracy 1.000", "held-out tokyo (features all) DOWN: 10 rows, accuracy 1.000",
		"held-out tokyo UP: cross-entropy "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	var m learn.StateModel
	if err := json.Unmarshal([]byte(out), &m); err != nil || m.Format != learn.StateFormat || len(m.Phases) != 2 ||
		!strings.Contains(string(m.Training), "--features all") {
		t.Errorf("model %v: %.300s", err, out)
	}
	if again, _, err := learnTrain(t, in, "--labels", "counterfactual", "--features", "all", "--holdout", "tokyo"); err != nil || again != out {
		t.Errorf("second training differs (err %v): must be deterministic", err)
	}
	// The default feature set on the same pool: blind to cwnd.
	_, stderr, err = learnTrain(t, in, "--labels", "counterfactual", "--holdout", "tokyo")
	if err != nil || !strings.Contains(stderr, "held-out tokyo UP: 10 rows, accuracy 0.") {
		t.Errorf("lmbbr features: %v\n%s", err, stderr)
	}
}

func TestLearnTrainFeaturesBad(t *testing.T) {
	in := cfPoolFile(t, t.TempDir())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{in, "--features", "most"}, `--features: feature set "most" (allowed: lmbbr, all)`},
		{[]string{in, "--features", "all", "--model", "seq", "--out", os.DevNull}, "--features all is for --model linear"},
	} {
		_, _, err := learnTrain(t, tc.args...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) || exitCode(err) != 2 {
			t.Errorf("%v: error %v (exit %d), want exit 2 with %q", tc.args, err, exitCode(err), tc.want)
		}
	}
}

// --model seq --labels counterfactual trains on the replayed rows only and
// scores the held-out city's; one seed gives one model file.
func TestLearnTrainSeqCounterfactual(t *testing.T) {
	in := cfPoolFile(t, t.TempDir())
	dir := t.TempDir()
	run := func(out string) string {
		_, stderr, err := learnTrain(t, in, "--model", "seq", "--labels", "counterfactual", "--holdout", "tokyo", "--epochs", "2",
			"--width", "16", "--layers", "1", "--window", "4", "--seed", "3", "--out", out)
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		return stderr
	}
	a, b := filepath.Join(dir, "a.safetensors"), filepath.Join(dir, "b.safetensors")
	stderr := run(a)
	run(b)
	// 10 replayed UP and 10 DOWN rows of 40 in tokyo (i%8 in {1, 6}, {3, 4}).
	for _, want := range []string{"held-out tokyo UP: n 10 ", "held-out tokyo DOWN: n 10 ", "train UP: n 10 "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	da, errA := os.ReadFile(a)
	db, errB := os.ReadFile(b)
	if errA != nil || errB != nil || !bytes.Equal(da, db) || !bytes.Contains(da, []byte("counterfactual argmax")) {
		t.Errorf("two runs with --seed 3 differ or lack the label record (%v, %v)", errA, errB)
	}
	// A surrogate-only pool has nothing to fit under counterfactual labels.
	_, _, err := learnTrain(t, seqPool(t), "--model", "seq", "--labels", "counterfactual", "--out", filepath.Join(dir, "c.safetensors"))
	if exitCode(err) != 2 || !strings.Contains(fmt.Sprint(err), "no row of") {
		t.Errorf("surrogate pool: %v (exit %d), want exit 2", err, exitCode(err))
	}
}
