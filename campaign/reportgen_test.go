package campaign

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leolab/leolab/report"
)

// The report holds the fidelity table and, per simulated direction and
// kind, the two tables and the simulated and real figures side by side.
func TestBuildReport(t *testing.T) {
	real, err := RealData()
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := Seed000(Seed000Options{Cities: []string{"sydney", "tokyo"}, Directions: []string{"downlink"}})
	if err != nil {
		t.Fatal(err)
	}
	flows := syntheticFlows(Dedicated, "downlink", map[string]float64{"cubic": 10, "bbr": 50, "vegas": 5}, map[string]float64{"sydney": 1, "tokyo": 0.5})
	flows = append(flows, syntheticFlows(Concurrent, "downlink", map[string]float64{"cubic": 10, "bbr": 50}, map[string]float64{"sydney": 1})...)
	rows := Compare(flows, real)
	rep, err := BuildReport(ReportInput{Title: "t", Campaign: c, Rows: rows, Notes: []string{"note: skipped x"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sections) != 3 {
		t.Fatalf("%d sections, want fidelity + downlink dedicated + downlink concurrent", len(rep.Sections))
	}
	for _, s := range rep.Sections[1:] {
		if len(s.Tables) != 2 || len(s.Figures) != 2 {
			t.Fatalf("section %q: %d tables, %d figures", s.Title, len(s.Tables), len(s.Figures))
		}
	}
	dir := t.TempDir()
	if err := report.Write(dir, rep); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, report.HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Spearman", "real-downlink-dedicated", "simulated-downlink-concurrent", "note: skipped x", "MPTCP-FreeBSD"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}
