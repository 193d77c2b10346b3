package reporttest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/leolab/leolab/report"
)

// page renders a real report with one time series of n points, captioned.
func page(t *testing.T, n int, caption string) string {
	t.Helper()
	s := report.Series{Name: "cubic", Key: "cubic", Unit: "Mbit/s"}
	for i := range n {
		s.T, s.V = append(s.T, float64(i+1)), append(s.V, float64(10+i%3))
	}
	f, err := report.TimeSeries("throughput", "throughput", []report.Series{s}, report.SeriesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.Caption = caption
	var b bytes.Buffer
	if err := report.RenderHTML(&b, &report.Report{Title: "t", Sections: []report.Section{{Title: "s", Figures: []*report.Figure{f}}}}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A figure the report package draws passes; too few figures, no caption,
// no SVG or a curve of too few points are each named.
func TestFigureProblems(t *testing.T) {
	good := page(t, 20, "Throughput of one CUBIC flow.")
	if p := FigureProblems(good, 1); p != nil {
		t.Fatalf("a drawn, captioned figure: %q", p)
	}
	for _, c := range []struct {
		name, html string
		min        int
		want       string
	}{
		{"too few", good, 2, "1 figures, want at least 2"},
		{"no caption", page(t, 20, ""), 1, "figure 0: empty caption"},
		{"no svg", strings.ReplaceAll(good, "<svg", "<img"), 1, "figure 0: no svg"},
		{"one point", page(t, 1, "x"), 1, "figure 0: no data drawn"},
	} {
		p := FigureProblems(c.html, c.min)
		if len(p) != 1 || !strings.HasPrefix(p[0], c.want) {
			t.Errorf("%s: %q, want one problem %q", c.name, p, c.want)
		}
	}
}
