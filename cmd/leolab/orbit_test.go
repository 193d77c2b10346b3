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

// wantOneLineBadInput runs the CLI and wants exit 2 with a one-line
// message holding every part of want.
func wantOneLineBadInput(t *testing.T, args []string, want ...string) {
	t.Helper()
	code, out, stderr := runCLI(args...)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != exitBadInput || len(lines) != 1 {
		t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and one line", args, code, out, stderr)
		return
	}
	for _, w := range want {
		if !strings.Contains(lines[0], w) {
			t.Errorf("%v: stderr %q; want it to contain %q", args, lines[0], w)
		}
	}
}

// Issue 22's acceptance 5 for orbits, through sim and emu (which refuse at
// parse time, before any namespace): a scenario whose TLE file has a bad
// checksum, and one naming an unknown shell; each is one line naming the
// scenario's file and line, the field, the TLE file's line and column, and
// what is allowed.
func TestBadOrbitScenarioCLI(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile("../../examples/orbit/starlink-like.tle")
	if err != nil {
		t.Fatal(err)
	}
	// Break the checksum of the first element set's line 1 (file line 13).
	lines := strings.Split(string(good), "\n")
	if !strings.HasPrefix(lines[12], "1 90001U") || len(lines[12]) != 69 {
		t.Fatalf("starlink-like.tle line 13 is %q, want the first set's line 1", lines[12])
	}
	sum := lines[12][68]
	lines[12] = lines[12][:68] + string('0'+(sum-'0'+1)%10)
	if err := os.WriteFile(filepath.Join(dir, "bad.tle"), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	scen := func(name, orbit string) string {
		p := filepath.Join(dir, name)
		text := "version: 1\nduration: 1s\npath:\n  profile: fixed\n  rate: 100Mbps\n  rtt: 20ms\n" +
			"  orbit: {from: \"-37.85,145.11\", to: \"-33.87,151.21\", " + orbit + "}\n  owd_source: orbit\nflows: [{cca: cubic}]\n"
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tle := scen("tle.yaml", "tle: bad.tle")
	shell := scen("shell.yaml", "shell: starlink-9")
	for _, engine := range []string{"sim", "emu"} {
		wantOneLineBadInput(t, []string{engine, "-f", tle}, tle+":7: path.orbit.tle: ",
			filepath.Join(dir, "bad.tle")+":13: tle line 1 column 69 (checksum): got ", "want "+string(sum)+" (allowed: the sum")
		wantOneLineBadInput(t, []string{engine, "-f", shell}, shell+":7: path.orbit.shell: ",
			`unknown shell "starlink-9" (allowed: starlink-1, `)
	}
	wantOneLineBadInput(t, []string{"orbit", "path", "--from", "-37.85,145.11", "--to", "-33.87,151.21", "--tle", filepath.Join(dir, "bad.tle")},
		"--tle "+filepath.Join(dir, "bad.tle")+":13: tle line 1 column 69 (checksum)")
	wantOneLineBadInput(t, []string{"orbit", "path", "--from", "-37.85,145.11", "--to", "-33.87,151.21", "--shell", "starlink-9"},
		`--shell: unknown shell "starlink-9" (allowed: starlink-1, `)
}
