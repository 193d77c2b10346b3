package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/trace"
)

// TestTraceExportModel: the command writes traces that the readers take
// back and a replay scenario that runs; the delay trace has one line per
// 10 ms of the duration.
func TestTraceExportModel(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"trace", "export", "--city", "sydney", "--duration", "3s", "--out", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, name := range []string{"uplink.txt", "downlink.txt"} {
		o, err := trace.ReadMahimahiFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if p := o.Period(); p < 2900*time.Millisecond || p > 3*time.Second {
			t.Errorf("%s: period %v, want just under 3 s", name, p)
		}
	}
	d, err := trace.ReadDelayFile(filepath.Join(dir, "delay.txt"), trace.DelayInterval)
	if err != nil || len(d.D) != 300 {
		t.Fatalf("delay.txt: %v, %v", d, err)
	}
	out.Reset()
	if code := run([]string{"sim", "-f", filepath.Join(dir, "replay.yaml")}, &out, &errb); code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "path=trace") {
		t.Errorf("replay output:\n%s", out.String())
	}
}

// TestTraceExportRun: a recorded probe run becomes a delay trace of its
// duration, and the probe reads it back.
func TestTraceExportRun(t *testing.T) {
	dir := t.TempDir()
	var res, errb bytes.Buffer
	scen := filepath.Join(dir, "p.yaml")
	os.WriteFile(scen, []byte("version: 1\nduration: 5s\npath: {profile: starlink, direction: downlink}\nflows: [{cca: cbr, rate: 800kbps, packet_size: 100, record: true}]\n"), 0o644)
	if code := run([]string{"sim", "-f", scen, "--json"}, &res, &errb); code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errb.String())
	}
	runFile := filepath.Join(dir, "run.json")
	os.WriteFile(runFile, res.Bytes(), 0o644)
	var out bytes.Buffer
	if code := run([]string{"trace", "export", "--run", runFile}, &out, &errb); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errb.String())
	}
	d, err := trace.ReadDelay("stdout", &out, trace.DelayInterval)
	if err != nil || len(d.D) != 500 {
		t.Fatalf("delay trace: %d lines, %v", len(d.D), err)
	}
	for _, v := range d.D {
		if v < 10*time.Millisecond || v > 80*time.Millisecond {
			t.Fatalf("delay %v outside a Starlink downlink's [10, 80] ms", v)
		}
	}
}

func TestTraceExportBadInput(t *testing.T) {
	dir := t.TempDir()
	notRun := filepath.Join(dir, "x.json")
	os.WriteFile(notRun, []byte(`{"engine": "sim", "flows": [{"id": 0, "cca": "cubic"}]}`), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--city", "atlantis", "--out", dir}, `--city "atlantis": allowed: `},
		{[]string{"--format", "pcap", "--out", dir}, `--format "pcap": allowed: leoreplayer, mahimahi`},
		{[]string{"--direction", "sideways", "--out", dir}, `--direction "sideways": allowed: downlink, uplink`},
		{[]string{"--profile", "fixed", "--out", dir}, `--profile "fixed": allowed: starlink, starlink-seed001`},
		{[]string{"--duration", "10ms", "--out", dir}, "--duration 10ms: must be in [1s, 24h]"},
		{[]string{"--duration", "3s"}, "--out DIR is required"},
		{[]string{"--run", notRun}, "no flow has per-packet records"},
		{[]string{"--run", filepath.Join(dir, "none.json")}, "no such file"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(append([]string{"trace", "export"}, c.args...), &out, &errb)
		if code != exitBadInput || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}
