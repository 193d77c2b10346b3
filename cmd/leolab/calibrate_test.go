package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A small calibration end to end: one parameter, uplink dedicated cells of
// two cities and two CCAs, 10 s runs; it writes the profile, the report and
// the CSVs, and the held-out city is predicted. Run again, it resumes from
// its store: nothing runs and the fit is the same.
func TestCalibrateSmall(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fit")
	args := []string{"calibrate", "--out", dir, "--directions", "uplink", "--kinds", "dedicated", "--ccas", "bbr,cubic",
		"--cities", "sydney,ohio", "--holdout", "london", "--duration", "10s", "--max-evals", "6",
		"--param", "uplink.alloc.base=5Mbps:60Mbps:log"}
	code, out, errOut := runCLI(args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"stage uplink: objective", "fitted:", "held out:", "uplink dedicated: "} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	yml, err := os.ReadFile(filepath.Join(dir, "fitted.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"uplink.alloc.base: ", "uplink.drift.median_rate_change: ", "# per-cell residuals", "sydney"} {
		if !strings.Contains(string(yml), want) {
			t.Errorf("fitted.yaml lacks %q:\n%s", want, yml)
		}
	}
	for _, f := range []string{"report.html", "residuals.csv", "evaluations.csv", "store.db"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	code, out2, errOut := runCLI(args...)
	if code != 0 {
		t.Fatalf("second run: exit %d\n%s", code, errOut)
	}
	if out2 != out {
		t.Errorf("resumed fit differs:\n%s\nvs\n%s", out2, out)
	}
	yml2, _ := os.ReadFile(filepath.Join(dir, "fitted.yaml"))
	if string(yml2) != string(yml) {
		t.Error("resumed fit wrote another fitted.yaml")
	}
}

func TestCalibrateBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--param", "uplink.alloc.nosuch"}, "unknown parameter"},
		{[]string{"--param", "uplink.alloc.base=60Mbps:5Mbps"}, "want lo < hi"},
		{[]string{"--param", "uplink.queue.isolation"}, "not a number"},
		{[]string{"--holdout", "atlantis"}, "allowed:"},
		{[]string{"--cities", "tokyo"}, "no real measurements"},
		{[]string{"--loss", "l7"}, "allowed: cauchy"},
		{[]string{"--weights", "1,2"}, "three numbers"},
		{[]string{"--runs", "0"}, "allowed 1..100"},
		{[]string{"--set", "downlink.random_loss"}, "want PATH=VALUE"},
		{[]string{"--profile", "fixed"}, "allowed: starlink, starlink-seed001"},
		{[]string{"--set", "downlink.nosuch=3"}, "unknown parameter"},
		{[]string{"--set", "downlink.random_loss=2"}, "downlink.random_loss"},
		{[]string{"--set", "downlink.aqm.mode=lin"}, "allowed values (allowed: adaptive, linear, off)"},
	} {
		code, _, errOut := runCLI(append([]string{"calibrate", "--out", t.TempDir()}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// --set holds a parameter in every evaluation (written to fitted.yaml, so
// the file is the whole profile) and gives a fitted one its start value.
func TestCalibrateSet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fit")
	code, out, errOut := runCLI("calibrate", "--out", dir, "--directions", "uplink", "--kinds", "dedicated", "--ccas", "cubic",
		"--cities", "sydney", "--duration", "10s", "--max-evals", "2", "--no-progress",
		"--param", "uplink.alloc.base=5Mbps:60Mbps:log", "--set", "uplink.alloc.base=20Mbps", "--set", "uplink.aqm.max_prob=0.3")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	yml, err := os.ReadFile(filepath.Join(dir, "fitted.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"start 20Mbps", "# held at these values in every evaluation (--set):\nuplink.aqm.max_prob: 0.3\n"} {
		if !strings.Contains(string(yml), want) {
			t.Errorf("fitted.yaml lacks %q:\n%s", want, yml)
		}
	}
	if strings.Count(string(yml), "uplink.alloc.base: ") != 1 {
		t.Errorf("uplink.alloc.base written other than once (fitted, not held):\n%s", yml)
	}
}

// The default CCAs: a concurrent kind runs the dataset's ccp flow beside
// the eight compared (its real runs had it), a dedicated-only fit leaves
// it out (its cells are never fitted, so its runs would only cost time).
func TestCalibrateDefaultCCAs(t *testing.T) {
	for _, tc := range []struct {
		kinds   []string
		wantCCP bool
	}{{nil, true}, {[]string{"concurrent"}, true}, {[]string{"dedicated"}, false}} {
		f := calibrateFlags{kinds: tc.kinds, profile: "starlink", runs: 1, duration: 5 * time.Minute, maxEvals: 60, weights: "1,0.5,0.5", loss: "cauchy"}
		c, err := f.resolve(nil)
		if err != nil {
			t.Fatalf("kinds %v: %v", tc.kinds, err)
		}
		if got := slices.Contains(c.ccas, "ccp"); got != tc.wantCCP || len(c.ccas) < 8 {
			t.Errorf("kinds %v: CCAs %v, want ccp %v beside the eight compared", tc.kinds, c.ccas, tc.wantCCP)
		}
	}
}
