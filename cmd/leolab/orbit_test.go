package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestOrbitPathCommand(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"orbit", "path", "--from", "-37.85,145.11", "--to", "-33.87,151.21", "--duration", "1m"}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "one_way_delay_ms") || strings.Count(out.String(), "starlink-1/") != 4 {
		t.Errorf("text output:\n%s", out.String())
	}

	out.Reset()
	if code := run(append(args, "--json", "--mode", "isl", "--policy", "sticky"), &out, &errb); code != 0 {
		t.Fatalf("json: exit %d: %s", code, errb.String())
	}
	var doc struct {
		Mode  string `json:"mode"`
		Slots []struct {
			Serving string  `json:"serving"`
			OWD     float64 `json:"one_way_delay_ms"`
			Nodes   []string
		} `json:"slots"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Mode != "isl" || len(doc.Slots) != 4 || doc.Slots[0].OWD < 3 || doc.Slots[0].OWD > 15 {
		t.Errorf("json: %+v", doc)
	}

	out.Reset()
	if code := run(append(args, "--csv"), &out, &errb); code != 0 {
		t.Fatalf("csv: exit %d: %s", code, errb.String())
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil || len(rows) != 5 || rows[0][0] != "start" || rows[0][7] != "one_way_delay_ms" {
		t.Errorf("csv: %v %v", rows, err)
	}
}

func TestOrbitPathCommandTLE(t *testing.T) {
	dir := t.TempDir()
	// The ISS on 20 September 2008 (a near-Earth set; period 91.6 min).
	tle := "ISS (ZARYA)\n" +
		"1 25544U 98067A   08264.51782528 -.00002182  00000-0 -11606-4 0  2927\n" +
		"2 25544  51.6416 247.4627 0006703 130.5360 325.0288 15.72125391563537\n"
	p := filepath.Join(dir, "iss.tle")
	if err := os.WriteFile(p, []byte(tle), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	args := []string{"orbit", "path", "--from", "-37.85,145.11", "--to", "-33.87,151.21",
		"--tle", p, "--start", "2008-09-20T12:30:00Z", "--duration", "1h", "--slot", "1m", "--csv"}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "true") { // one satellite: outages most of the hour
		t.Errorf("csv:\n%s", out.String())
	}
	bad := strings.Replace(tle, "0  2927", "0  2928", 1)
	if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := run(args, &out, &errb); code != 2 || !strings.Contains(errb.String(), "iss.tle:2: tle line 1 column 69 (checksum)") {
		t.Errorf("bad checksum: exit %d: %s", code, errb.String())
	}
}

func TestOrbitPathCommandBadInput(t *testing.T) {
	base := []string{"orbit", "path", "--from", "-37.85,145.11", "--to", "-33.87,151.21"}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"orbit", "path"}, "--from and --to are required"},
		{append(base[:2:2], "--from", "91,0", "--to", "0,0"), "--from"},
		{append(base, "--mode", "laser"), "allowed: bentpipe, isl"},
		{append(base, "--policy", "random"), "allowed: highest, dwell, sticky"},
		{append(base, "--start", "yesterday"), "--start"},
		{append(base, "--duration", "0s"), "--duration"},
		{append(base, "--slot", "0s"), "--slot"},
		{append(base, "--duration", "10"), "duration"},
		{append(base, "--shell", "starlink-9"), "allowed: starlink-1"},
		{append(base, "--min-elevation", "95"), "--min-elevation"},
		{append(base, "--min-elevation", "NaN"), "--min-elevation"}, // issue 18: NaN passed el <= 0 || el >= 90
		{append(base, "--json", "--csv"), "choose one"},
		{append(base, "--tle", "/nonexistent.tle"), "--tle"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

// The live emulator refuses a scenario with an orbit loss model or delay
// (sim only), exit 2, naming the file, line and field.
func TestEmuRefusesOrbitScenario(t *testing.T) {
	code, _, stderr := runCLI("emu", "-f", "../../examples/orbit/ptot-sydney-probe.yaml")
	if code != 2 || !strings.Contains(stderr, "ptot-sydney-probe.yaml: emu: path.loss_model (line 22): ") || !strings.Contains(stderr, "simulator only") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// The example runs in sim and its probe loses packets (the loss rate
// itself is checked against p_tot in scenario's tests).
func TestSimRunsOrbitExample(t *testing.T) {
	code, stdout, stderr := runCLI("sim", "-f", "../../examples/orbit/ptot-sydney-probe.yaml", "--json")
	if code != 0 || !strings.Contains(stdout, `"lost_packets"`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// --gateways replaces the built-in table: a Melbourne dish to Sydney
// lands at the only gateway given (Canberra), whose fibre to Sydney is the
// great circle, ~247 km; a bad line exits 2 naming file and line.
func TestOrbitPathGatewaysFile(t *testing.T) {
	gw := writeFile(t, "gw.csv", "name,lat,lon\ncanberra,-35.28,149.13\n")
	code, out, stderr := runCLI("orbit", "path", "--from", "-37.85,145.11", "--to", "-33.87,151.21", "--gateways", gw, "--duration", "1m", "--csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines, want header + 4 slots:\n%s", len(lines), out)
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if f[2] != "canberra" {
			t.Errorf("gateway %q, want canberra: %s", f[2], l)
		}
		if km, _ := strconv.ParseFloat(f[6], 64); km < 240 || km > 255 {
			t.Errorf("fibre %v km, Canberra–Sydney great circle ~247 km: %s", f[6], l)
		}
	}
	bad := writeFile(t, "bad.csv", "a,1,2\nb,95,2\n")
	code, _, stderr = runCLI("orbit", "path", "--from", "-37.85,145.11", "--to", "-33.87,151.21", "--gateways", bad)
	if code != 2 || !strings.Contains(stderr, bad+`:2: gateway "b": "95,2": latitude 95 outside -90..90`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
