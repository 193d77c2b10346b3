package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/result"
)

func TestEmuBadFlags(t *testing.T) {
	wantUsageErrors(t, newEmuCmd, []string{"--rate", "nope"}, []string{"--flows", "0"}, []string{"--duration", "0s"},
		[]string{"--direction", "sideways"}, []string{"--loss", "1"})
}

func TestEmuRunJSON(t *testing.T) {
	needEmu(t)
	var out bytes.Buffer
	c := newEmuCmd()
	c.SetOut(&out)
	if err := execCmd(t, c, "--rate", "20Mbps", "--rtt", "20ms", "--cca", "reno", "--duration", "2s", "--json"); err != nil {
		t.Fatal(err)
	}
	var res result.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if res.Engine != "emu" || len(res.Flows) != 1 || res.Flows[0].CCA != "reno" || res.Path.RateMbps != 20 {
		t.Fatalf("result %+v", res)
	}
	if tp := res.Flows[0].ThroughputMbps; tp < 10 || tp > 20 {
		t.Errorf("reno %.2f Mbit/s on a 20 Mbit/s link for 2 s, want 10–20", tp)
	}
	if _, ok := res.Instrument["release_err_p99_us"]; !ok {
		t.Errorf("no pump instrument in the result: %v", res.Instrument)
	}
	// By default the pump gets a CPU of its own (see emu/host.go).
	if runtime.NumCPU() > 1 && res.Instrument["pump_cpu"] < 1 {
		t.Errorf("pump_cpu %v on %d CPUs, want the pump pinned", res.Instrument["pump_cpu"], runtime.NumCPU())
	}
}

func TestEmuCleanupReports(t *testing.T) {
	needEmu(t)
	var out bytes.Buffer
	c := newEmuCmd()
	c.SetOut(&out)
	if err := execCmd(t, c, "--cleanup"); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "nothing to clean up") && !strings.Contains(s, "removed namespace") {
		t.Errorf("cleanup printed %q", s)
	}
}

// writeScenario writes a scenario file into a test directory.
func writeScenario(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEmuFileBadInput(t *testing.T) {
	good := writeScenario(t, "version: 1\nname: g\nduration: 2s\npath: {profile: fixed, rate: 20Mbps, rtt: 20ms}\nflows: [{cca: reno}]\n")
	bytesLimited := writeScenario(t, "version: 1\nname: b\nduration: 2s\npath: {profile: fixed, rate: 20Mbps, rtt: 20ms}\nflows: [{cca: reno, bytes: 1000}]\n")
	wantUsageErrors(t, newEmuCmd,
		[]string{"-f", good, "--rate", "10Mbps"},
		[]string{"-f", good, "--cca", "bbr"},
		[]string{"-f", filepath.Join(t.TempDir(), "missing.yaml")},
		[]string{"--leolab-transport"},
		[]string{"-f", bytesLimited})
}

func TestEmuHelpDocumentsMapping(t *testing.T) {
	long := newEmuCmd().Long
	for _, s := range []string{"cubic → the kernel's cubic", "reno → the kernel's reno", "bbr1  → the kernel's bbr", "leolab's own", "--leolab-transport"} {
		if !strings.Contains(long, s) {
			t.Errorf("emu --help does not say %q", s)
		}
	}
}

// A scenario file runs live: a kernel flow (reno), one on leolab's
// transport (bbr3) and a probe share a 20 Mbit/s link; --iperf3-json
// writes logs the iperf reader accepts.
func TestEmuFileRun(t *testing.T) {
	needEmu(t)
	file := writeScenario(t, `version: 1
name: mixed
duration: 3s
path: {profile: fixed, rate: 20Mbps, rtt: 20ms}
flows:
  - {cca: reno}
  - {cca: bbr3}
  - {cca: cbr, rate: 2Mbps, packet_size: 1000}
`)
	dir := t.TempDir()
	var out bytes.Buffer
	c := newEmuCmd()
	c.SetOut(&out)
	c.SetErr(&bytes.Buffer{})
	if err := execCmd(t, c, "-f", file, "--json", "--iperf3-json", dir, "--shared"); err != nil {
		t.Fatal(err)
	}
	var res result.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if res.Engine != "emu" || res.Scenario != "mixed" || len(res.Flows) != 3 || res.EpochUTC == "" {
		t.Fatalf("result %+v", res)
	}
	if in := res.Instrument; in["pump_cpu"] != -1 || in["idle_polls"] != 0 {
		t.Errorf("--shared: pump_cpu %v, idle_polls %v; want -1 and 0", in["pump_cpu"], in["idle_polls"])
	}
	var sum float64
	for i, want := range []string{"reno", "bbr3", "cbr"} {
		f := res.Flows[i]
		sum += f.ThroughputMbps
		if f.CCA != want || f.ThroughputMbps <= 0 {
			t.Errorf("flow %d: %s at %.1f Mbit/s, want %s moving data", i, f.CCA, f.ThroughputMbps, want)
		}
	}
	// Payload of all flows together cannot exceed the link's 20 Mbit/s.
	if sum > 20 {
		t.Errorf("flows total %.1f Mbit/s through a 20 Mbit/s link", sum)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) < 2 {
		t.Fatalf("%d iperf3 files in %s, want one per TCP flow", len(files), dir)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := iperf.Parse(p, data); err != nil {
			t.Errorf("iperf reader rejects %s: %v", p, err)
		}
	}
}
