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

// Issue 22's acceptance 5 for traces, through sim and emu (which refuse at
// parse time): a delivery-opportunity trace whose times go back (Mahimahi's
// and LeoReplayer's bandwidth files) and a delay trace with a line that is
// not a delay; each is one line naming the trace file and line, what is
// allowed, and the scenario field that named the file.
func TestBadTraceScenarioCLI(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"ok.txt": "1\n2\n3\n4\n", "back.txt": "1\n2\n7\n7\n5\n8\n",
		"delay.txt": "10\n11\n", "baddelay.txt": "10\n11\nslow\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	scen := func(name, tr string) string {
		p := filepath.Join(dir, name)
		text := "version: 1\nduration: 1s\npath:\n  profile: trace\n  trace: " + tr + "\nflows: [{cca: cubic}]\n"
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	back := filepath.Join(dir, "back.txt") + ":5: 5 ms after 7 ms on line 4: timestamps must be non-decreasing (each line >= the one before)"
	cases := []struct {
		file string
		want []string
	}{
		{scen("mm.yaml", "{format: mahimahi, uplink: back.txt, downlink: ok.txt}"), []string{back, "(path.trace.uplink of "}},
		{scen("leo.yaml", "{format: leoreplayer, uplink: ok.txt, downlink: back.txt, delay: delay.txt}"), []string{back, "(path.trace.downlink of "}},
		{scen("delay.yaml", "{format: leoreplayer, uplink: ok.txt, downlink: ok.txt, delay: baddelay.txt}"),
			[]string{filepath.Join(dir, "baddelay.txt") + `:3: "slow" is not a delay (allowed: a number of milliseconds in [0, 600000], one per line)`}},
	}
	for _, c := range cases {
		for _, engine := range []string{"sim", "emu"} {
			wantOneLineBadInput(t, []string{engine, "-f", c.file}, append(c.want, c.file)...)
		}
	}
}
