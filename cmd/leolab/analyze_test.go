package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runAnalyzeCLI runs `leolab analyze …` as run does, registering the
// command when root.go does not (yet).
func runAnalyzeCLI(args ...string) (code int, stdout, stderr string) {
	root := newRoot()
	if c, _, err := root.Find([]string{"analyze"}); err != nil || c == root {
		root.AddCommand(newAnalyzeCmd())
	}
	var o, e bytes.Buffer
	root.SetArgs(append([]string{"analyze"}, args...))
	root.SetOut(&o)
	root.SetErr(&e)
	err := root.Execute()
	if err == nil {
		return 0, o.String(), e.String()
	}
	e.WriteString("leolab: " + err.Error() + "\n")
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return 2, o.String(), e.String()
	}
	return 1, o.String(), e.String()
}

func tracesDir(t *testing.T) string {
	p := filepath.Join("..", "..", "..", "shared", "data", "starlink-iperf3", "traces")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data not available beside the repository: %v", err)
	}
	return p
}

// A bad file among good ones: one stderr line naming it with the byte
// offset, the others analysed and reported, exit 1.
func TestAnalyzeBadFileAmongGood(t *testing.T) {
	dir := t.TempDir()
	traces := tracesDir(t)
	files, _ := filepath.Glob(filepath.Join(traces, "*.csv"))
	bad := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(bad, []byte(`{"start": {"version": "iperf 3.16", "test_start": {"prot`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "report")
	code, stdout, stderr := runAnalyzeCLI(append(files, bad, "--out", out)...)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %q", code, stderr)
	}
	var errLines []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if strings.HasPrefix(l, "leolab: ") && !strings.Contains(l, "warning") {
			errLines = append(errLines, l)
		}
	}
	if len(errLines) != 1 || !strings.Contains(errLines[0], bad) || !regexp.MustCompile(`byte \d+`).MatchString(errLines[0]) {
		t.Errorf("stderr error lines %q: want one naming %s with a byte offset", errLines, bad)
	}
	for _, f := range files {
		if !strings.Contains(stdout, filepath.Base(f)) {
			t.Errorf("table lacks %s:\n%s", filepath.Base(f), stdout)
		}
	}
	for _, name := range []string{"report.html", "metrics.csv"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("report: %v", err)
		}
	}
	pngs, _ := filepath.Glob(filepath.Join(out, "*.png"))
	svgs, _ := filepath.Glob(filepath.Join(out, "*.svg"))
	if len(pngs) == 0 || len(pngs) != len(svgs) {
		t.Errorf("%d PNG and %d SVG plots", len(pngs), len(svgs))
	}
	csv, _ := os.ReadFile(filepath.Join(out, "metrics.csv"))
	if n := strings.Count(string(csv), "\n"); n != len(files)+1 {
		t.Errorf("metrics.csv has %d lines, want header + %d flows", n, len(files))
	}
}

func TestAnalyzeJSON(t *testing.T) {
	code, stdout, stderr := runAnalyzeCLI(tracesDir(t), "--json")
	if code != 0 {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	var doc struct {
		Flows []struct {
			Label string  `json:"label"`
			Bytes int64   `json:"bytes"`
			Mbps  float64 `json:"throughput_mbps"`
		} `json:"flows"`
		Groups []struct{ Group string } `json:"groups"`
		Errors []string                 `json:"errors"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("--json output: %v", err)
	}
	if len(doc.Flows) != 3 || len(doc.Groups) != 2 || len(doc.Errors) != 0 {
		t.Errorf("flows %d groups %d errors %v", len(doc.Flows), len(doc.Groups), doc.Errors)
	}
	for _, f := range doc.Flows {
		if f.Bytes <= 0 || f.Mbps <= 0 {
			t.Errorf("flow %+v", f)
		}
	}
}

func TestAnalyzeUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"/nonexistent/x.json"}, {"--bogus"}} {
		if code, _, stderr := runAnalyzeCLI(args...); code != 2 || stderr == "" {
			t.Errorf("%v: exit %d stderr %q, want 2 and a message", args, code, stderr)
		}
	}
	empty := t.TempDir()
	if code, _, stderr := runAnalyzeCLI(empty); code != 2 || !strings.Contains(stderr, "no iperf3 JSON") {
		t.Errorf("empty dir: exit %d stderr %q", code, stderr)
	}
}
