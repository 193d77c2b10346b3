package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/internal/reporttest"
)

// reproduce000Args is a reduced seed-000 job: Sydney only, 40 s runs, two
// seeds per Fig. 15 arrival pattern.
func reproduce000Args(dir string) []string {
	return []string{"reproduce", "--paper", "000", "--out", dir, "--cities", "sydney", "--duration", "40s",
		"--pair-seeds", "2", "--pair-duration", "40s", "--no-progress"}
}

// Every seed-000 figure is in the report, drawn (axis labels, data,
// legend, caption), with its CSV; a second run of the same job writes the
// same figures and tables byte for byte.
func TestReproduce000Figures(t *testing.T) {
	needCampaignCmds(t)
	dirs := []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
	for _, dir := range dirs {
		if code, out, errOut := runCLI(reproduce000Args(dir)...); code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
	}
	html, err := os.ReadFile(filepath.Join(dirs[0], "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	figures := []string{"simreal-dedicated", "simreal-concurrent", "fig11-real", "fig11-simulated",
		"fig12-real-downlink", "fig12-simulated-downlink", "fig12-real-uplink", "fig12-simulated-uplink",
		"fig13-sim-dedicated", "fig13-sim-concurrent", "fig13-sydney-trace-base", "fig13-sydney-window-base",
		"fig14-downlink-fair-share", "fig14-downlink-max-min", "fig14-downlink-pf", "fig14-downlink-alpha0",
		"fig14-uplink-fair-share", "fig14-uplink-max-min", "fig14-uplink-pf", "fig14-uplink-alpha0",
		"fig15-phase-simultaneous", "fig15-indices-simultaneous", "fig15-throughput-simultaneous",
		"fig15-phase-staggered", "fig15-indices-staggered", "fig15-throughput-staggered",
		"slot-downlink-retransmissions", "slot-downlink-throughput", "slot-uplink-retransmissions", "slot-uplink-throughput"}
	for _, name := range figures {
		if !strings.Contains(string(html), `href="`+name+`.svg"`) {
			t.Errorf("report.html lacks figure %s", name)
		}
	}
	reporttest.CheckFigures(t, string(html), len(figures))
	checkRendered(t, dirs[0], len(figures))
	for _, want := range []string{"Differences from the paper", "0.949", "0.909", "0.761", "0.637", "c_s² = 0", "Fig. 15, staggered"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	var outputs []string
	for _, pat := range []string{"fig*.csv", "fig*.svg", "slot*.svg", "simreal*.svg", "slot-peaks.csv"} {
		m, _ := filepath.Glob(filepath.Join(dirs[0], pat))
		outputs = append(outputs, m...)
	}
	if len(outputs) < len(figures)+5 {
		t.Fatalf("%d figure and table files, want at least %d", len(outputs), len(figures)+5)
	}
	for _, p := range outputs {
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join(dirs[1], filepath.Base(p)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs of the same job (%v)", filepath.Base(p), err)
		}
	}
}

// An unknown seed is refused as a usage error, and so is --ccas with
// --paper 003 (--paper 001, 002 and 003 have their own tests).
func TestReproducePaperValues(t *testing.T) {
	for _, c := range []struct {
		paper string
		want  string
		extra []string
	}{{"003", "--ccas does not apply", []string{"--ccas", "bbr"}}, {"004", "allowed values are 000, 001, 002 and 003", nil}} {
		code, _, errOut := runCLI(append([]string{"reproduce", "--paper", c.paper, "--out", t.TempDir()}, c.extra...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("--paper %s: exit %d, stderr %q; want 2 and %q", c.paper, code, errOut, c.want)
		}
	}
}
