package report

import (
	"math"
	"strings"
	"testing"
)

// Error bars widen the y axis to hold them and render; NaN half-widths
// (one run: no error bar) are skipped, mismatched lengths refused.
func TestErrorBars(t *testing.T) {
	f, err := XY("ratio", "RTT (ms)", "ratio", []XYSeries{{Name: "cubic", Key: "cubic", X: []float64{50, 100}, Y: []float64{1, 0.5}, Points: true}}, SeriesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ErrorBars(f, "cubic", []float64{50, 100}, []float64{1, 0.5}, []float64{0.8, math.NaN()}, nil); err != nil {
		t.Fatal(err)
	}
	if max := f.Plot().Y.Max; max < 1.8 {
		t.Errorf("y axis ends at %g, below the bar's top 1.8", max)
	}
	svg, err := f.SVG()
	if err != nil || !strings.Contains(string(svg), "<svg") {
		t.Fatalf("svg: %v", err)
	}
	if err := ErrorBars(f, "cubic", []float64{1}, []float64{1, 2}, []float64{1}, nil); err == nil {
		t.Error("mismatched lengths accepted")
	}
}
