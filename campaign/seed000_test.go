package campaign

import (
	"testing"
)

// The built-in study: 9 CCAs × 6 cities × 2 directions dedicated plus one
// concurrent run per city and direction, per seed.
func TestSeed000Size(t *testing.T) {
	for _, c := range []struct {
		full  bool
		seeds int
	}{{false, QuickRuns}, {true, FullRuns}} {
		camp, warnings, err := Seed000(Seed000Options{Full: c.full})
		if err != nil {
			t.Fatal(err)
		}
		runs, err := camp.Expand()
		if err != nil {
			t.Fatal(err)
		}
		ccas := 9 - len(warnings) // CCAs not registered yet are dropped with a warning
		want := c.seeds * (ccas*6*2 + 6*2)
		if len(runs) != want {
			t.Errorf("full=%v: %d runs, want %d", c.full, len(runs), want)
		}
		flows := 0
		for _, r := range runs {
			flows += len(r.CCAs)
		}
		if !c.full && flows != c.seeds*ccas*6*2*2 {
			t.Errorf("quick: %d flows", flows)
		}
		if c.full && (camp.Duration != FullDuration || len(camp.Seeds) != 10) {
			t.Errorf("full: %v × %d", camp.Duration, len(camp.Seeds))
		}
	}
	camp, _, err := Seed000(Seed000Options{Cities: []string{"sydney"}, Kinds: []string{Dedicated}, Runs: 2, Duration: 5e9})
	if err != nil || len(camp.Seeds) != 2 || camp.Duration != 5e9 || len(camp.Axes.City) != 1 {
		t.Fatalf("restricted: %+v %v", camp, err)
	}
	if _, _, err := Seed000(Seed000Options{Cities: []string{"paris"}}); err == nil {
		t.Fatal("unknown city accepted")
	}
}

// Unregistered CCAs are dropped with a warning naming them.
func TestDropUnregistered(t *testing.T) {
	c := &Campaign{Name: "x", Axes: Axes{CCA: []string{"cubic", "nosuch"}}}
	w := c.DropUnregistered()
	if len(w) != 1 || len(c.Axes.CCA) != 1 || c.Axes.CCA[0] != "cubic" {
		t.Fatalf("warnings %v, ccas %v", w, c.Axes.CCA)
	}
}
