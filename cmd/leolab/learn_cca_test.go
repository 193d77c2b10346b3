package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/cc/astraea"
	"github.com/leolab/leolab/cc/orca"
	"github.com/leolab/leolab/cc/sage"
	"github.com/leolab/leolab/learn/actor"
)

// trainCCA runs `leolab learn train-cca args...` and returns the exit
// status, stdout and stderr.
func trainCCA(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(append([]string{"learn", "train-cca"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// A tiny run (2 rounds of 2 two-second episodes, 5 updates) writes an
// actor cc/orca loads, and the same flags give the same bytes.
func TestTrainCCAOrcaDeterministic(t *testing.T) {
	args := []string{"orca", "--rounds", "2", "--episodes", "2", "--updates", "5", "--episode", "2s", "--validation", "1"}
	code, a, stderr := trainCCA(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "round   1") || !strings.Contains(stderr, "trained in") {
		t.Errorf("stderr lacks the progress log:\n%s", stderr)
	}
	if _, err := actor.Parse("stdout", orca.StateDim, []byte(a)); err != nil {
		t.Fatal(err)
	}
	var f actor.File
	if err := json.Unmarshal([]byte(a), &f); err != nil || f.Meta["note"] != "retrained here; the authors' weights are not used" || f.Meta["seed"] != "1" {
		t.Fatalf("meta %v (%v)", f.Meta, err)
	}
	out := filepath.Join(t.TempDir(), "actor.json")
	if code, _, stderr := trainCCA(append(args, "--out", out)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != a {
		t.Fatal("same flags, different weights")
	}
}

// Bad input exits 2 with a message naming what is allowed.
func TestTrainCCABadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, "allowed: orca"},
		{[]string{"vegas"}, "allowed: orca, astraea, sage"},
		{[]string{"sage", "--rounds", "3"}, "--rounds does not apply"},
		{[]string{"sage", "--episodes", "0"}, "--episodes 0"},
		{[]string{"orca", "--rounds", "0"}, "--rounds 0"},
		{[]string{"orca", "--workers", "0"}, "workers"},
		{[]string{"orca", "--episode", "10ms"}, "--episode 10ms"},
		{[]string{"orca", "--rounds", "1", "--episodes", "1", "--episode", "1s", "--out", "/nonexistent/dir/a.json"}, "--out"},
		{[]string{"orca", "--leo=maybe"}, "--leo"},
		{[]string{"astraea", "--leo=2"}, "--leo"},
		{[]string{"sage", "--leo"}, "--leo does not apply"},
	} {
		code, _, stderr := trainCCA(c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("train-cca %v: exit %d, stderr %q; want 2 naming %q", c.args, code, stderr, c.want)
		}
	}
}

// --leo trains on the Starlink path: a tiny Orca run (one 2 s episode
// per round) writes an actor cc/orca loads, marked leo in its meta, and
// its log shows the episodes had no fixed link rate (td3 reports
// utilisation 0 exactly on the Starlink path), while the same run on
// dumbbells fills part of its links and has no leo key in its meta (so
// default runs still rebuild the embedded files).
func TestTrainCCALEO(t *testing.T) {
	args := []string{"orca", "--rounds", "2", "--episodes", "1", "--updates", "5", "--episode", "2s", "--validation", "1"}
	code, leo, leoLog := trainCCA(append(args, "--leo")...)
	if code != 0 {
		t.Fatalf("--leo: exit %d: %s", code, leoLog)
	}
	if _, err := actor.Parse("stdout", orca.StateDim, []byte(leo)); err != nil {
		t.Fatal(err)
	}
	code, plain, plainLog := trainCCA(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, plainLog)
	}
	var fl, fp actor.File
	if err := json.Unmarshal([]byte(leo), &fl); err != nil || fl.Meta["leo"] != "true" {
		t.Fatalf("--leo meta %v (%v)", fl.Meta, err)
	}
	if err := json.Unmarshal([]byte(plain), &fp); err != nil || fp.Meta["leo"] != "" {
		t.Fatalf("meta without --leo %v (%v)", fp.Meta, err)
	}
	const val = "validation reward"
	for _, c := range []struct {
		name, log string
		want      bool
	}{{"--leo", leoLog, true}, {"dumbbells", plainLog, false}} {
		i := strings.Index(c.log, val)
		if i < 0 {
			t.Fatalf("%s: no validation in the log:\n%s", c.name, c.log)
		}
		line, _, _ := strings.Cut(c.log[i:], "\n")
		if got := strings.Contains(line, "utilisation 0.000,"); got != c.want {
			t.Errorf("%s: validation utilisation 0 is %v, want %v:\n%s", c.name, got, c.want, c.log)
		}
	}
}

// `leolab cca list` shows orca with its source and the retraining note.
func TestCCAListOrca(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"cca", "list"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var line string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "orca") {
			line = l
		}
	}
	if !strings.Contains(line, "retrained here; the authors' weights are not used") || !strings.Contains(line, "SIGCOMM 2020") ||
		!strings.Contains(line, "model=FILE") {
		t.Fatalf("cca list orca line %q", line)
	}
}

var retrainOrca = flag.Bool("retrain-orca", false, "retrain Orca with the defaults (minutes) and compare with the embedded actor")

// The embedded actor is what `leolab learn train-cca orca` rebuilds, byte
// for byte (on amd64: Go does not fuse multiply-adds there). Minutes of
// 2 cores: run with -retrain-orca. The embedded files' header names the
// format learn/actor writes ("leolab-actor"); it was renamed from
// "leolab-orca-actor" there, when the format moved out of cc/orca, and
// nothing else in them changed.
func TestTrainCCAOrcaRebuildsEmbedded(t *testing.T) {
	if !*retrainOrca {
		t.Skip("skipping the full Orca retrain (minutes); run with -retrain-orca")
	}
	code, out, stderr := trainCCA("orca")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if out != string(orca.DefaultActorFile()) {
		t.Fatal("a fresh default retrain differs from the embedded cc/orca/actor.json")
	}
}

// train-cca astraea runs self-play training; same flags, same bytes; the
// actor has cc/astraea's input size.
func TestTrainCCAAstraeaDeterministic(t *testing.T) {
	args := []string{"astraea", "--rounds", "2", "--episodes", "2", "--updates", "5", "--episode", "2s", "--validation", "1"}
	code, a, stderr := trainCCA(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := actor.Parse("stdout", astraea.StateDim, []byte(a)); err != nil {
		t.Fatal(err)
	}
	var f actor.File
	if err := json.Unmarshal([]byte(a), &f); err != nil || f.Meta["trained_by"] != "leolab learn train-cca astraea" || f.Meta["episode"] != "2s" {
		t.Fatalf("meta %v (%v)", f.Meta, err)
	}
	if _, b, _ := trainCCA(args...); b != a {
		t.Fatal("same flags, different weights")
	}
}

// `leolab cca list` shows astraea with its source and the retraining note.
func TestCCAListAstraea(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"cca", "list"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var line string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "astraea") {
			line = l
		}
	}
	if !strings.Contains(line, "retrained here; the authors' weights are not used") || !strings.Contains(line, "EuroSys 2024") {
		t.Fatalf("cca list astraea line %q", line)
	}
}

var retrainAstraea = flag.Bool("retrain-astraea", false, "retrain Astraea with the defaults (about 5 minutes) and compare with the embedded actor")

// The embedded Astraea actor is what `leolab learn train-cca astraea`
// rebuilds, byte for byte (amd64). Minutes: run with -retrain-astraea.
func TestTrainCCAAstraeaRebuildsEmbedded(t *testing.T) {
	if !*retrainAstraea {
		t.Skip("skipping the full Astraea retrain (minutes); run with -retrain-astraea")
	}
	code, out, stderr := trainCCA("astraea")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if out != string(astraea.DefaultActorFile()) {
		t.Fatal("a fresh default retrain differs from the embedded cc/astraea/actor.json")
	}
}

// A tiny Sage run (one 2 s pool run of each heuristic, 5 CRR steps, one
// validation run) writes a policy cc/sage loads with the note, and the
// same flags give the same bytes.
func TestTrainCCASageDeterministic(t *testing.T) {
	args := []string{"sage", "--episodes", "1", "--updates", "5", "--episode", "2s", "--validation", "1"}
	code, a, stderr := trainCCA(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "pool: 7 runs") || !strings.Contains(stderr, "step 5: validation") {
		t.Errorf("stderr lacks the progress log:\n%s", stderr)
	}
	p, err := sage.ParsePolicy("stdout", []byte(a))
	if err != nil {
		t.Fatal(err)
	}
	if m := p.File().Meta; m["note"] != "retrained here; the authors' weights are not used" || m["seed"] != "1" || m["updates"] != "5" {
		t.Fatalf("meta %v", m)
	}
	if _, b, _ := trainCCA(args...); b != a {
		t.Fatal("same flags, different weights")
	}
}

// `leolab cca list` shows sage with its source and the retraining note.
func TestCCAListSage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"cca", "list"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var line string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "sage") {
			line = l
		}
	}
	if !strings.Contains(line, "retrained here; the authors' weights are not used") || !strings.Contains(line, "SIGCOMM 2023") {
		t.Fatalf("cca list sage line %q", line)
	}
}

var retrainSage = flag.Bool("retrain-sage", false, "retrain Sage with the defaults (minutes) and compare with the embedded policy")

// The embedded Sage policy is what `leolab learn train-cca sage`
// rebuilds, byte for byte (amd64). Minutes: run with -retrain-sage.
func TestTrainCCASageRebuildsEmbedded(t *testing.T) {
	if !*retrainSage {
		t.Skip("skipping the full Sage retrain (minutes); run with -retrain-sage")
	}
	code, out, stderr := trainCCA("sage")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if out != string(sage.DefaultPolicyFile()) {
		t.Fatal("a fresh default retrain differs from the embedded cc/sage/policy.json")
	}
}
