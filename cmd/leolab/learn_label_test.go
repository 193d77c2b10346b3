package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/cc/lmbbr"
	"github.com/leolab/leolab/learn"
)

// learn label writes a pool whose counterfactual rows learn train
// --labels counterfactual fits; the model names its labels. 24 s of the
// Sydney downlink hold both UP and DOWN decisions (16 s held only UP ones
// once the uplink's AQM judged the ACKs by their wait).
func TestLearnLabelThenTrain(t *testing.T) {
	dir := t.TempDir()
	pool := filepath.Join(dir, "cf.jsonl")
	var out, errb bytes.Buffer
	c := newLearnCmd()
	c.SetOut(&out)
	c.SetErr(&errb)
	if err := execCmd(t, c, "label", "--cities", "sydney", "--seeds", "1", "--duration", "24s", "--every", "1", "--out", pool); err != nil {
		t.Fatalf("learn label: %v\n%s", err, errb.String())
	}
	for _, want := range []string{"simulations", "UP:", "DOWN:", "differ from surrogate"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
	fh, err := os.Open(pool)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := learn.ReadJSONL(fh)
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rows {
		if r.LabelSource == learn.LabelCounterfactual {
			n++
		}
	}
	if len(rows) != 24 || n == 0 {
		t.Fatalf("%d rows, %d counterfactual; want 24 rows, some counterfactual", len(rows), n)
	}
	model := filepath.Join(dir, "m.json")
	c = newLearnCmd()
	c.SetOut(&out)
	c.SetErr(&errb)
	if err := execCmd(t, c, "train", pool, "--labels", "counterfactual", "--out", model); err != nil {
		t.Fatalf("learn train: %v\n%s", err, errb.String())
	}
	data, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lmbbr.ParseModel(data); err != nil || !strings.Contains(string(data), "counterfactual argmax") {
		t.Errorf("model %v, training record %s", err, data)
	}
}

func TestLearnLabelBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"label", "--cities", "paris"}, `--cities: "paris" (allowed:`},
		{[]string{"label", "--every", "0"}, "--every 0 is out of range"},
		{[]string{"label", "--workers", "0"}, "--workers 0 is out of range"},
		{[]string{"label", "--duration", "1s"}, "--duration 1s is out of range"},
		{[]string{"label", "--direction", "sideways"}, `--direction "sideways"`},
		{[]string{"label", "--seeds", "0"}, "--seeds 0 is out of range"},
		{[]string{"label", "--replays", "0"}, "--replays 0 is out of range (allowed: 1..64)"},
		{[]string{"label", "--replays", "65"}, "--replays 65 is out of range (allowed: 1..64)"},
		{[]string{"train", os.DevNull, "--labels", "oracle"}, `label source "oracle" (allowed: surrogate, counterfactual)`},
	} {
		c := newLearnCmd()
		var out bytes.Buffer
		c.SetOut(&out)
		c.SetErr(&out)
		err := execCmd(t, c, tc.args...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
}
