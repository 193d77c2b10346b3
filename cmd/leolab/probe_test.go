package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's probe pipeline: sim writes the example probe's result, and
// probe reads back the Starlink model's schedule and frame (the inference
// itself is tested in package probe).
func TestProbeSimResult(t *testing.T) {
	file := exampleProbeResult(t)
	code, out, stderr := runCLI("probe", file, "--json")
	if code != 0 {
		t.Fatalf("probe exit %d: %s", code, stderr)
	}
	var v struct {
		Packets  int `json:"packets"`
		Schedule *struct {
			PeriodS    float64 `json:"period_s"`
			UTCSeconds []int   `json:"utc_seconds"`
			OnGrid     int     `json:"on_grid"`
		} `json:"schedule"`
		OutageMs float64 `json:"outage_ms"`
		Frame    *struct {
			PeriodMs float64 `json:"period_ms"`
		} `json:"frame"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if v.Schedule == nil || math.Abs(v.Schedule.PeriodS-15) > 0.001 || v.Schedule.OnGrid != 3 || jsonString(v.Schedule.UTCSeconds) != "[12,27,42,57]" {
		t.Errorf("schedule %+v, want every 15 s at :12 :27 :42 :57, 3 outages on it", v.Schedule)
	}
	// Profile: 45 ms downlink outage; frames quantise both of its ends.
	if v.OutageMs < 44 || v.OutageMs > 45+2*1000.0/750+0.5 {
		t.Errorf("outage %.2f ms, want 45 ms (+ up to two frames)", v.OutageMs)
	}
	if v.Frame == nil || math.Abs(v.Frame.PeriodMs-1000.0/750) > 0.002 {
		t.Errorf("frame %+v, want 1.3333 ms", v.Frame)
	}
	code, text, _ := runCLI("probe", file)
	if code != 0 || !strings.Contains(text, "at :12 :27 :42 :57 of each UTC minute") || !strings.Contains(text, "frame: 1.3333 ms") {
		t.Errorf("text output (exit %d):\n%s", code, text)
	}
}

// exampleProbeResult writes the result of examples/starlink/probe.yaml
// (sim --json) to a file and returns its path.
func exampleProbeResult(t *testing.T) string {
	t.Helper()
	code, res, stderr := runCLI("sim", "-f", "../../examples/starlink/probe.yaml", "--json")
	if code != 0 {
		t.Fatalf("sim exit %d: %s", code, stderr)
	}
	return writeFile(t, "probe.json", res)
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A real recording (the LeoReplayer example's delay series) through the CLI.
func TestProbeDelaySeries(t *testing.T) {
	file := filepath.Join("..", "..", "..", "shared", "data", "leoreplayer-example", "delay_example.txt")
	if _, err := os.Stat(file); err != nil {
		t.Skipf("shared data not available beside the repository: %v", err)
	}
	code, out, stderr := runCLI("probe", file, "--step", "10ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "outages: 8 (8 on a schedule, 0 off)") || (!strings.Contains(out, "schedule: every 14.99") && !strings.Contains(out, "schedule: every 15.00")) {
		t.Errorf("output:\n%s", out)
	}
}

// Bad input: exit 2, a message naming the file and what was wrong.
func TestProbeBadInput(t *testing.T) {
	noRecords := writeFile(t, "r.json", `{"engine":"sim","flows":[{"id":0,"cca":"cubic","intervals":[]}]}`)
	badLine := writeFile(t, "d.txt", "12\n13\nfast\n")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"probe", noRecords}, "r.json: no flow has per-packet records: run a cbr flow with record: true"},
		{[]string{"probe", noRecords, "--flow", "3"}, "r.json: --flow 3: no flow 3 (flows: 0)"},
		{[]string{"probe", badLine}, `d.txt:3: "fast" is not a one-way delay in ms (want a number in [0, 600000])`},
		{[]string{"probe", badLine, "--step", "0s"}, "--step 0s: want a positive duration"},
		{[]string{"probe", filepath.Join(t.TempDir(), "missing.json")}, "missing.json: no such file"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// --overrides prints a scenario path block that sim accepts and that
// names the example probe's model back.
func TestProbeOverrides(t *testing.T) {
	file := exampleProbeResult(t)
	code, out, stderr := runCLI("probe", file, "--overrides")
	if code != 0 {
		t.Fatalf("probe exit %d: %s", code, stderr)
	}
	for _, want := range []string{"reconfig.period: 15s", "reconfig.offset: 12s", "tdma.frame: 1.3333ms", "downlink.outage.duration: 4", "downlink.base_owd: 13."} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	replay := writeFile(t, "replay.yaml", "version: 1\nname: replay\nduration: 2s\n"+out+"flows: [{cca: cubic}]\n")
	if code, _, stderr := runCLI("sim", "-f", replay); code != 0 {
		t.Errorf("sim refuses the overrides (exit %d): %s", code, stderr)
	}
}
