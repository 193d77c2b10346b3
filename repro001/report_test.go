package repro001

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/leolab/leolab/report"
)

// The report holds every figure, each non-empty (an inline SVG with its
// axis labels, a legend entry per series and a caption quoting the
// paper), every profile's table and the differences.
func TestReportFigures(t *testing.T) {
	st := quickStudy(t)
	rep, err := st.Report([]report.Meta{{Key: "leolab", Value: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	wantFigs := []string{"queue-bursts", "allocation-ramp", "allocation-decay", "aqm-drop-curve", "reconfig-owd", "reconfig-rate",
		"isolation-downlink", "isolation-uplink", "pop-limiter", "slow-start", "recovery"}
	got := map[string]*report.Figure{}
	var titles []string
	for _, s := range rep.Sections {
		titles = append(titles, s.Title)
		for _, f := range s.Figures {
			got[f.Name] = f
		}
	}
	for _, name := range wantFigs {
		f := got[name]
		if f == nil {
			t.Errorf("figure %s missing", name)
			continue
		}
		if !strings.HasPrefix(f.Caption, "Paper (finding") || !strings.Contains(f.Caption, "Measured") {
			t.Errorf("figure %s: caption %q does not give the paper's and our numbers", name, f.Caption)
		}
		if f.LegendEntries() == 0 {
			t.Errorf("figure %s has no legend", name)
		}
	}
	var page bytes.Buffer
	if err := report.RenderHTML(&page, rep); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	svgs := regexp.MustCompile(`(?s)<svg\b.*?</svg>`).FindAllString(html, -1)
	if len(svgs) != len(wantFigs) {
		t.Errorf("%d inline SVGs, want %d", len(svgs), len(wantFigs))
	}
	for i, s := range svgs {
		if len(s) < 5000 || strings.Count(s, "<path") < 10 {
			t.Errorf("svg %d: %d bytes, %d paths: looks empty", i, len(s), strings.Count(s, "<path"))
		}
	}
	for _, want := range []string{"Differences from the paper", "Quantities: default", "Quantities: small-shared-30s", "Quantities: fast-dl-slow-ul",
		"drop probability", "time since the sender stopped (ms)", "offered rate (Mbit/s)", "packet size (bytes)"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q (sections: %v)", want, titles)
		}
	}
	for _, bad := range []string{"NaN", "http://", "https://", "<script"} {
		if strings.Contains(html, bad) {
			t.Errorf("report contains %q", bad)
		}
	}
	t.Logf("report: %d bytes, %d figures", len(html), len(svgs))
}
