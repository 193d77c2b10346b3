package report

import (
	"bytes"
	"image/color"
	"math"
	"testing"
)

// An XY plot renders lines and markers with its own axis labels and a
// legend entry per series and reference, and refuses mismatched or
// infinite data.
func TestXY(t *testing.T) {
	f, err := XY("drop curve", "queue (packets)", "drop probability", []XYSeries{
		{Name: "measured", X: []float64{10, 20, 30}, Y: []float64{0.01, math.NaN(), 0.03}, Points: true},
		{Name: "profile", X: []float64{0, 250}, Y: []float64{0, 0.25}, Color: color.Black},
	}, SeriesOptions{Refs: []RefLine{{Y: 0.2, Label: "ref"}}})
	if err != nil {
		t.Fatal(err)
	}
	// The markers span 10–30 on an axis the line takes to 0–250: 5 % of
	// the span is kept free below the first marker.
	if ax := f.Plot().X; ax.Min > 10-0.05*250 || ax.Max < 250 {
		t.Errorf("x axis %v–%v: want room below the first marker (10) and the line's 250 kept", ax.Min, ax.Max)
	}
	if n := f.LegendEntries(); n != 3 {
		t.Errorf("%d legend entries, want 3", n)
	}
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"queue (packets)", "drop probability", "measured", "profile", "ref"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("svg lacks %q", want)
		}
	}
	for _, bad := range [][]XYSeries{
		nil,
		{{Name: "a", X: []float64{1, 2}, Y: []float64{1}}},
		{{Name: "b", X: []float64{math.Inf(1)}, Y: []float64{1}}},
		{{Name: "c", X: []float64{1}, Y: []float64{math.Inf(-1)}}},
		{{Name: "d"}},
	} {
		if _, err := XY("bad", "x", "y", bad, SeriesOptions{}); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
