package report

import (
	"bytes"
	"testing"
)

func TestSimReal(t *testing.T) {
	pts := []SimRealPoint{{"cubic", "sydney", 27.6, 28.3}, {"bbr", "london", 136, 148}, {"bbr2", "ohio", 146, 42.6}, {"vegas", "x", 0, 3}}
	f, err := SimReal("throughput", "Mbit/s", 0.25, pts)
	if err != nil {
		t.Fatal(err)
	}
	if f.LegendEntries() != 3 {
		t.Errorf("%d legend entries, want 3 (vegas has no positive point)", f.LegendEntries())
	}
	svg, err := f.SVG()
	if err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Fatalf("svg: %v", err)
	}
	if _, err := SimReal("empty", "Mbit/s", 0.25, []SimRealPoint{{"cubic", "", 0, 1}}); err == nil {
		t.Error("no positive point: want an error")
	}
}
