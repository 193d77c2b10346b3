package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/learn"
)

// curvePoolFile writes a counterfactual pool of three training cities and
// tokyo whose reward curves rise with the gain when cwnd is 3–4 MB and
// fall when it is 1–2 MB (slope 0.01 per gain step; rate, RTT and loss
// constant), the best gain the highest or the lowest.
func curvePoolFile(t *testing.T, dir string) string {
	t.Helper()
	locs := []string{"london", "ohio", "sydney", "tokyo"}
	return cwndPoolFile(t, filepath.Join(dir, "cf-curve.jsonl"), locs, func(r *learn.Row, g []float64) {
		slope := -0.01
		if r.CWnd > 2_000_000 {
			slope = 0.01
		}
		r.GainRewards = make([]float64, len(g))
		for k := range g {
			r.GainRewards[k] = 0.7 + slope*float64(k-2)
		}
		k := 0
		if slope > 0 {
			k = len(g) - 1
		}
		r.Action = g[k]
	})
}

// --target curve regresses the reward curves: with the full state it
// answers every held-out row's best gain at zero regret, where always the
// training majority loses 0.02 per row; the output is its own JSON,
// identical run to run.
func TestLearnTrainTargetCurve(t *testing.T) {
	in := curvePoolFile(t, t.TempDir())
	args := []string{in, "--labels", "counterfactual", "--target", "curve", "--features", "all", "--holdout", "tokyo"}
	out, stderr, err := learnTrain(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// Tokyo: 10 UP and 10 DOWN rows, half at cwnd 1–2 MB. The training
	// majority is the lowest gain (ties of the counts go to it), wrong on
	// the other half, each costing the ends' gap 0.01·4 = 0.04: mean 0.02.
	for _, want := range []string{
		"held-out tokyo (target curve) UP: 10 rows, accuracy 1.000", "held-out tokyo (target curve) DOWN: 10 rows, accuracy 1.000",
		"mean regret 0.0000 (always 1.05: 0.0200;", "mean regret 0.0000 (always 0.9: 0.0200;",
		"curve UP: l2 ", "temperature "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	var m learn.CurveModel
	if err := json.Unmarshal([]byte(out), &m); err != nil || m.Format != learn.CurveFormat || len(m.Phases) != 2 ||
		!strings.Contains(string(m.Training), "--target curve") || len(m.Features) != len(learn.StateFeatureNames) {
		t.Errorf("model %v: %.300s", err, out)
	}
	if again, _, err := learnTrain(t, args...); err != nil || again != out {
		t.Errorf("second training differs (err %v): must be deterministic", err)
	}
	// The lmbbr features do not see cwnd: the curve is flat on average, so
	// the model can do no better than a constant.
	_, stderr, err = learnTrain(t, in, "--labels", "counterfactual", "--target", "curve", "--holdout", "tokyo", "--out", os.DevNull)
	if err != nil || !strings.Contains(stderr, "held-out tokyo (target curve) UP: 10 rows, accuracy 0.500") {
		t.Errorf("lmbbr features: %v\n%s", err, stderr)
	}
}

func TestLearnTrainTargetBad(t *testing.T) {
	in := curvePoolFile(t, t.TempDir())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{in, "--labels", "counterfactual", "--target", "argmax"}, `--target: target "argmax" (allowed: gain, curve)`},
		{[]string{in, "--target", "curve"}, "--target curve needs --labels counterfactual"},
		{[]string{in, "--labels", "counterfactual", "--target", "curve", "--model", "seq"}, "--target curve is for --model linear"},
		{[]string{in, "--labels", "counterfactual", "--target", "curve", "--l2", "0"}, "--l2 0 must be above 0"},
	} {
		_, _, err := learnTrain(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != 2 {
			t.Errorf("%v: error %v (exit %d), want exit 2 with %q", tc.args, err, exitCode(err), tc.want)
		}
	}
}
