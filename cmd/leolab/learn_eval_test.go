package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leolab/leolab/learn/closedloop"
)

// learnEval runs `learn eval args...`.
func learnEval(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	c := newLearnCmd()
	c.SetOut(&out)
	c.SetErr(&errb)
	err := execCmd(t, c, append([]string{"eval"}, args...)...)
	return out.String(), err
}

// readEvalCSV returns the CSV's rows keyed by arm/metric.
func readEvalCSV(t *testing.T, path string) map[string]map[string]string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := csv.NewReader(fh).ReadAll()
	if err != nil || len(recs) < 2 || !slices.Equal(recs[0], closedloop.CSVHeader) {
		t.Fatalf("csv (%v): %v", err, recs)
	}
	out := map[string]map[string]string{}
	for _, r := range recs[1:] {
		row := map[string]string{}
		for i, k := range recs[0] {
			row[k] = r[i]
		}
		out[row["arm"]+"/"+row["metric"]] = row
	}
	return out
}

// A small evaluation (2 seeds × 10 s on the Sydney downlink) runs every
// arm. The learned arm given the embedded linear model's file is the
// linear arm to the digit (same model, same seeds: determinism and the
// model parameter's plumbing), bbr's paired difference with itself is 0,
// and const105 differs from bbr.
func TestLearnEval(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "linear.json")
	data, err := os.ReadFile("../../cc/lmbbr/model.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(model, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "eval.csv")
	stdout, err := learnEval(t, "--model", model, "--seeds", "2", "--duration", "10s", "--csv", out)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", stdout)
	rows := readEvalCSV(t, out)
	for _, arm := range closedloop.ArmNames {
		for _, m := range closedloop.Metrics {
			r, ok := rows[arm+"/"+m.Name]
			if !ok || r["n"] != "2" || r["city"] != "sydney" || r["direction"] != "downlink" {
				t.Errorf("%s %s: row %v", arm, m.Name, r)
			}
		}
		if !strings.Contains(stdout, "\n"+arm+" ") {
			t.Errorf("table lacks arm %s", arm)
		}
	}
	for _, m := range closedloop.Metrics {
		l, lin, b := rows["learned/"+m.Name], rows["linear/"+m.Name], rows["bbr/"+m.Name]
		if l["mean"] != lin["mean"] || l["diff_vs_ref"] != lin["diff_vs_ref"] {
			t.Errorf("%s: learned (the linear model's file) %s/%s, linear %s/%s", m.Name, l["mean"], l["diff_vs_ref"], lin["mean"], lin["diff_vs_ref"])
		}
		if b["ref"] != "bbr" || b["diff_vs_ref"] != "0" || b["diff_ci95"] != "0" {
			t.Errorf("%s: bbr against itself %s ± %s (ref %s)", m.Name, b["diff_vs_ref"], b["diff_ci95"], b["ref"])
		}
	}
	if rows["const105/throughput_mbps"]["diff_vs_ref"] == "0" {
		t.Error("const105 ran as bbr: its throughput equals bbr's on every seed")
	}
}

// A sequence model runs as the learned arm.
func TestLearnEvalSeq(t *testing.T) {
	in := seqPool(t)
	model := filepath.Join(t.TempDir(), "m.safetensors")
	if _, stderr, err := learnTrain(t, in, "--model", "seq", "--epochs", "1", "--width", "16", "--layers", "1",
		"--window", "4", "--out", model); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	stdout, err := learnEval(t, "--model", model, "--arms", "learned,const105", "--ref", "const105", "--seeds", "2", "--duration", "10s")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "\nlearned ") || strings.Contains(stdout, "\nlinear ") || !strings.Contains(stdout, "Δ vs const105") {
		t.Errorf("table:\n%s", stdout)
	}
}

func TestLearnEvalBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"format":"leolab-linear","version":7}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "--model FILE is needed"},
		{[]string{"--arms", "bbr,linear", "--city", "perth"}, `--city "perth"`},
		{[]string{"--arms", "linear"}, "must hold bbr"},
		{[]string{"--model", bad}, `bad.json: leolab-linear file version "7", this leolab reads version 1`},
		{[]string{"--arms", "bbr", "--seeds", "0"}, "--seeds 0"},
		{[]string{"--arms", "bbr", "x"}, "unexpected arguments"},
		{[]string{"--arms", "bbr", "--ref", "linear"}, "must hold linear"},
	} {
		_, err := learnEval(t, c.args...)
		if !isUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %T %v, want a usage error naming %q", c.args, err, err, c.want)
		}
	}
}
