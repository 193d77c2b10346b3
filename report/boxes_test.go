package report

import (
	"strings"
	"testing"
)

func TestCategoryBoxesDrawsEverySeries(t *testing.T) {
	cities := []string{"sydney", "tokyo"}
	box := Box{N: 300, WhiskLo: 10, Q1: 100, Median: 150, Q3: 200, WhiskHi: 340, Outliers: []float64{400, 420}}
	f, err := CategoryBoxes("throughput", "Mbit/s", cities, []BoxSeries{
		{Name: "bbr real", Key: "bbr", Boxes: []Box{box, {}}}, // no real Tokyo: left out
		{Name: "bbr sim", Key: "bbr", Hollow: true, Boxes: []Box{box, {N: 1, WhiskLo: 5, Q1: 5, Median: 5, Q3: 5, WhiskHi: 5}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if f.LegendEntries() != 2 {
		t.Errorf("%d legend entries, want 2", f.LegendEntries())
	}
	if lo, hi := f.Plot().Y.Min, f.Plot().Y.Max; lo != 0 || hi < 420 {
		t.Errorf("y range %g..%g: want 0 and above the largest outlier 420", lo, hi)
	}
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range append(cities, "bbr real", "bbr sim", "Mbit/s", "throughput") {
		if !strings.Contains(string(svg), want) {
			t.Errorf("svg lacks %q", want)
		}
	}
	// Three boxes with outliers drawn as rings (arcs): 2 + 2, plus none for the single sample.
	if n := strings.Count(string(svg), "A"); n < 4 {
		t.Errorf("%d arcs, want the 4 outlier rings", n)
	}
	if _, err := f.PNG(); err != nil {
		t.Fatal(err)
	}
}

func TestCategoryBoxesRejectsBadInput(t *testing.T) {
	good := Box{N: 3, WhiskLo: 1, Q1: 2, Median: 3, Q3: 4, WhiskHi: 5}
	for name, s := range map[string][]BoxSeries{
		"length":    {{Name: "a", Boxes: []Box{good, good}}},
		"unordered": {{Name: "a", Boxes: []Box{{N: 3, WhiskLo: 1, Q1: 4, Median: 3, Q3: 4, WhiskHi: 5}}}},
		"negative":  {{Name: "a", Boxes: []Box{{N: 3, WhiskLo: -1, Q1: 2, Median: 3, Q3: 4, WhiskHi: 5}}}},
		"outlier":   {{Name: "a", Boxes: []Box{{N: 3, WhiskLo: 1, Q1: 2, Median: 3, Q3: 4, WhiskHi: 5, Outliers: []float64{-2}}}}},
		"none":      nil,
	} {
		if _, err := CategoryBoxes("t", "y", []string{"x"}, s); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// On a log axis the range runs from the smallest positive value and a
// zero is drawn at the bottom; all zeros are refused.
func TestCategoryBoxesLog(t *testing.T) {
	b := Box{N: 5, WhiskLo: 0, Q1: 0.1, Median: 0.3, Q3: 2, WhiskHi: 90}
	f, err := CategoryBoxesLog("cwnd", "MB", []string{"sydney"}, []BoxSeries{{Name: "hybla", Boxes: []Box{b}}})
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := f.Plot().Y.Min, f.Plot().Y.Max; lo != 0.1 || hi < 90 {
		t.Errorf("y range %g..%g, want 0.1 and above 90", lo, hi)
	}
	if _, err := f.SVG(); err != nil {
		t.Fatal(err)
	}
	zero := Box{N: 2}
	if _, err := CategoryBoxesLog("t", "y", []string{"x"}, []BoxSeries{{Name: "a", Boxes: []Box{zero}}}); err == nil {
		t.Error("all zeros on a log axis: no error")
	}
}
