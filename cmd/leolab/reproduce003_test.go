package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/internal/reporttest"
)

// reproduce003Args is a reduced seed-003 job: Sydney (the real traces'
// city) and the held-out Tokyo, one seed, 60 s runs (20 runs, ~10 s).
func reproduce003Args(dir string) []string {
	return []string{"reproduce", "--paper", "003", "--out", dir, "--cities", "sydney,tokyo", "--runs", "1",
		"--duration", "60s", "--no-progress"}
}

// Every seed-003 panel is in the report, drawn, with its CSV; Tokyo is
// labelled the model's prediction with no real box; the report says what
// the boxes are over; Fig. 9's surrogate and closed-loop figures are
// there with their tables (the closed loop over 2 seeds: --runs 1 asks
// for at least the two a CI needs); a second run writes the same figures
// and tables byte for byte; the page renders in headless Chromium
// offline.
func TestReproduce003Figures(t *testing.T) {
	needCampaignCmds(t)
	dirs := []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
	for _, dir := range dirs {
		code, out, errOut := runCLI(reproduce003Args(dir)...)
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		if !strings.Contains(out, "seed 003 statements holding on the simulated boxes") {
			t.Errorf("stdout lacks the statements' count:\n%s", out)
		}
		if !strings.Contains(out, "Fig. 9 closed loop: 24 runs") {
			t.Errorf("stdout lacks the closed-loop runs (2 cities × 2 directions × 3 arms × 2 seeds):\n%s", out)
		}
	}
	html, err := os.ReadFile(filepath.Join(dirs[0], "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	var figures []string
	for _, fig := range []string{"2", "3", "4", "5"} {
		for _, p := range []string{"a-throughput", "b-retransmits", "c-cwnd", "e-rtt", "f-rttvar"} {
			figures = append(figures, "fig"+fig+p)
		}
	}
	for _, m := range []string{"throughput", "retransmits", "cwnd", "rtt", "rttvar"} {
		figures = append(figures, "sydney-seconds-"+m)
	}
	figures = append(figures, "fig9a-accuracy", "fig9a-throughput", "fig9a-retransmits", "fig9b-throughput", "fig9b-retrans")
	for _, name := range figures {
		if !strings.Contains(string(html), `href="`+name+`.svg"`) {
			t.Errorf("report.html lacks figure %s", name)
		}
	}
	reporttest.CheckFigures(t, string(html), len(figures))
	for _, want := range []string{"Tokyo (sim only)", "Differences from the paper", "Fig. 9 (a)", "Fig. 9 (b)", "1.5 IQR",
		"per-second", "per run", "nine flows", "≈ 350", "Tokyo (held out) downlink", "against const105", "majority baseline"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	// The held-out city has no real box: no real row, and its claims
	// have no real value.
	med, err := os.ReadFile(filepath.Join(dirs[0], "fig2-medians.csv"))
	if err != nil {
		t.Fatal(err)
	}
	tokyo := 0
	for _, line := range strings.Split(string(med), "\n") {
		f := strings.Split(line, ",")
		if len(f) < 5 || !strings.HasPrefix(f[0], "Tokyo") {
			continue
		}
		tokyo++
		if f[4] != "0" || f[7] != "" {
			t.Errorf("a Tokyo row with real runs (real_runs %q, real throughput %q): %s", f[4], f[7], line)
		}
	}
	if tokyo != 4 {
		t.Errorf("%d Tokyo rows in fig2-medians.csv, want one per CCA", tokyo)
	}
	if strings.Contains(string(html), "Not built") {
		t.Error("report.html still says a figure is not built")
	}
	// Fig. 9 (b): every cell × arm × metric, each arm over 2 seeds.
	cl, err := os.ReadFile(filepath.Join(dirs[0], "fig9b-closedloop.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if rows := strings.Split(strings.TrimSpace(string(cl)), "\n"); len(rows) != 1+4*3*3 || !strings.HasPrefix(rows[1], "tokyo,downlink,bbr,throughput_mbps,2,60,") {
		t.Errorf("fig9b-closedloop.csv: %d rows, want 36 + header starting with Tokyo downlink bbr:\n%.400s", len(rows), cl)
	}
	if _, err := os.Stat(filepath.Join(dirs[0], "fig9a-surrogate.csv")); err != nil {
		t.Error(err)
	}
	outputs, _ := filepath.Glob(filepath.Join(dirs[0], "*.csv"))
	svgs, _ := filepath.Glob(filepath.Join(dirs[0], "*.svg"))
	if len(svgs) != len(figures) || len(outputs) < 6 {
		t.Fatalf("%d SVG and %d CSV files, want %d and at least 6", len(svgs), len(outputs), len(figures))
	}
	for _, p := range append(outputs, svgs...) {
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join(dirs[1], filepath.Base(p)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs of the same job (%v)", filepath.Base(p), err)
		}
	}
	checkRendered(t, dirs[0], len(figures))
}
