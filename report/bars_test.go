package report

import (
	"math"
	"strings"
	"testing"
)

func TestCategoryBarsRendersEveryCategory(t *testing.T) {
	cats := []string{"bbr", "cubic", "vegas"}
	f, err := CategoryBars("fair-share score", "S_i / S*", cats, []BarSeries{
		{Name: "simulated", Values: []float64{1.4, 0.6, 0.2}},
		{Name: "real", Values: []float64{1.1, math.NaN(), 0.3}}, // no real cubic: bar left out
	}, []RefLine{{Y: 1, Label: "fair share"}})
	if err != nil {
		t.Fatal(err)
	}
	if f.LegendEntries() != 3 {
		t.Errorf("%d legend entries, want 3", f.LegendEntries())
	}
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range append(cats, "simulated", "real", "fair share", "S_i / S*") {
		if !strings.Contains(string(svg), want) {
			t.Errorf("svg lacks %q", want)
		}
	}
	if _, err := f.PNG(); err != nil {
		t.Fatal(err)
	}
}

func TestCategoryBarsRejectsBadInput(t *testing.T) {
	for name, s := range map[string][]BarSeries{
		"length":   {{Name: "a", Values: []float64{1}}},
		"negative": {{Name: "a", Values: []float64{1, -1}}},
		"infinite": {{Name: "a", Values: []float64{1, math.Inf(1)}}},
		"none":     nil,
	} {
		if _, err := CategoryBars("t", "y", []string{"x", "y"}, s, nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
