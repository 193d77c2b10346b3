package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leolab/leolab/campaign"
)

// Acceptance 1 on a reduced campaign (two cities, 10 s runs): report.html
// with the side-by-side tables and figures, results.csv with the agreed
// columns (real cells empty for Tokyo), and the four rank correlations on
// stdout. The full quick campaign is run by hand (3 min on 2 cores).
func TestReproduceReduced(t *testing.T) {
	needCampaignCmds(t)
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCLI("reproduce", "--out", dir, "--cities", "sydney,tokyo", "--duration", "10s", "--pair-seeds", "1", "--pair-duration", "40s", "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	ccas := len(campaign.DatasetNames()) - strings.Count(errOut, "warning: ")
	runs := 2 * 2 * (ccas + 1)
	if !strings.Contains(out, "seed000-quick: "+strconv.Itoa(runs)+" runs") {
		t.Fatalf("stdout lacks the run count %d:\n%s", runs, out)
	}
	for _, k := range []string{"downlink dedicated: Spearman", "uplink dedicated: Spearman", "downlink concurrent: Spearman", "uplink concurrent: Spearman"} {
		if !strings.Contains(out, k) {
			t.Errorf("stdout lacks %q:\n%s", k, out)
		}
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Rank correlation", "real throughput", "sim throughput", "<svg",
		"simulated-downlink-dedicated", "real-downlink-dedicated", "simulated-uplink-concurrent", "real-uplink-concurrent"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	csv, err := os.ReadFile(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	if lines[0] != "kind,direction,city,cca,sim_throughput_mbps,sim_retrans_per_gb,sim_rtt_inflation,real_throughput_mbps,real_retrans_per_gb,real_rtt_inflation" {
		t.Fatalf("header %q", lines[0])
	}
	// One row per kind, direction, city and dataset CCA (unregistered ones
	// keep their real numbers in Sydney only).
	if len(lines) != 1+2*2*9+2*2*ccas {
		t.Fatalf("%d rows, want %d", len(lines)-1, 2*2*9+2*2*ccas)
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if (f[2] == "tokyo") != (f[7] == "" && f[8] == "" && f[9] == "") {
			t.Fatalf("row %q: real cells must be empty exactly for Tokyo", l)
		}
	}
	// Rerun: everything is in DIR/store.db already.
	code, out, _ = runCLI("reproduce", "--out", dir, "--cities", "sydney,tokyo", "--duration", "10s", "--pair-seeds", "1", "--pair-duration", "40s", "--no-progress")
	if code != 0 || !strings.Contains(out, strconv.Itoa(runs)+" stored before, 0 ran") {
		t.Fatalf("rerun: exit %d\n%s", code, out)
	}
}

// TestReproduceEngineRefused: an engine a paper does not run on is bad
// input (exit 2) naming the allowed values, before anything runs.
func TestReproduceEngineRefused(t *testing.T) {
	for _, paper := range []string{"000", "001", "002", "003"} {
		allowed := enginesByPaper[paper]
		engine := campaign.EngineEmu
		if slices.Contains(allowed, engine) {
			engine = "bogus"
		}
		code, _, errOut := runCLI("reproduce", "--paper", paper, "--engine", engine, "--out", t.TempDir())
		if want := fmt.Sprintf("--engine %q: allowed values are %s", engine, strings.Join(allowed, ", ")); code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("--paper %s --engine %s: exit %d, stderr %q; want 2 naming the allowed values", paper, engine, code, errOut)
		}
	}
}

// Without --out, a study writes into PREFIX-quick, -full or (live) -emu;
// --out wins.
func TestReproduceDefaultOut(t *testing.T) {
	for _, c := range []struct {
		f    reproduceFlags
		want string
	}{
		{reproduceFlags{}, "reproduce-002-quick"},
		{reproduceFlags{full: true}, "reproduce-002-full"},
		{reproduceFlags{engine: campaign.EngineEmu}, "reproduce-002-emu"},
		{reproduceFlags{engine: campaign.EngineEmu, out: "mine"}, "mine"},
	} {
		c.f.defaultOut("reproduce-002")
		if c.f.out != c.want {
			t.Errorf("%+v: out %q, want %q", c.f, c.f.out, c.want)
		}
	}
}
