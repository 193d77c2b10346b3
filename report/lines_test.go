package report

import (
	"math"
	"strings"
	"testing"
)

func TestHLineWidensOnlyY(t *testing.T) {
	xmin, xmax, ymin, ymax := newHLine(42, nil).DataRange()
	if !math.IsInf(xmin, 1) || !math.IsInf(xmax, -1) || ymin != 42 || ymax != 42 {
		t.Errorf("DataRange = %v %v %v %v, want +Inf -Inf 42 42", xmin, xmax, ymin, ymax)
	}
}

func TestBoundariesOutsideRangeNotDrawn(t *testing.T) {
	// Two series figures differing only in a boundary beyond the x range
	// must render identically.
	s := synthetic("cubic", "", 20, func(float64) float64 { return 10 })
	a, err := TimeSeries("b", "throughput", []Series{s}, SeriesOptions{Boundaries: []float64{5}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := TimeSeries("b", "throughput", []Series{s}, SeriesOptions{Boundaries: []float64{5, 500}})
	if err != nil {
		t.Fatal(err)
	}
	sa, _ := a.SVG()
	sb, _ := b.SVG()
	if string(sa) != string(sb) {
		t.Error("a boundary outside the x range changed the figure")
	}
	if n := strings.Count(string(sa), "stroke-dasharray:3,3"); n != 2 {
		t.Errorf("%d dashed boundary strokes, want 2 (one on the axes, one in the legend)", n)
	}
}

func TestHeadroom(t *testing.T) {
	f := newFigure("h", "x", "y")
	f.plot.Y.Min, f.plot.Y.Max = 0, 200
	headroom(f)
	if got, want := f.plot.Y.Max, 200*(1+yHeadroom); math.Abs(got-want) > 1e-9 {
		t.Errorf("y max = %v, want %v", got, want)
	}
}

func TestDegenerateRangesRender(t *testing.T) {
	// One point at zero: both axes would be empty spans.
	s := Series{Name: "cubic", Unit: "Mbit/s", T: []float64{0}, V: []float64{0}}
	f, err := TimeSeries("one point", "throughput", []Series{s}, SeriesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !(f.plot.X.Max > f.plot.X.Min) || !(f.plot.Y.Max > f.plot.Y.Min) {
		t.Errorf("empty span left: x [%v, %v] y [%v, %v]", f.plot.X.Min, f.plot.X.Max, f.plot.Y.Min, f.plot.Y.Max)
	}
	renderBoth(t, f)
	one := []FlowSummary{{CCA: "vegas", RTTInflation: 1, ThroughputMbps: 0}}
	g, err := ThroughputInflation("one idle flow", one)
	if err != nil {
		t.Fatal(err)
	}
	renderBoth(t, g)
}
