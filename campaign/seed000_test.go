package campaign

import (
	"context"
	"testing"

	"github.com/leolab/leolab/internal/livetest"
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

// fidelityMin is the acceptance threshold of issue 8: the simulator must
// order the CCAs by mean throughput as Starlink did, Spearman ρ ≥ 0.7, for
// downlink and uplink dedicated runs.
const fidelityMin = 0.7

// Fidelity of the quick campaign: its dedicated runs in the five cities with
// real data (Tokyo has none and does not enter ρ; ccp is excluded from ρ, so
// it is not run). ~200 CPU-seconds: skipped with -short.
func TestSeed000Fidelity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the quick campaign's 80 dedicated 300 s runs (~100 s on 2 cores); skipped with -short")
	}
	// ~100 s of every core would starve a live emulator test's pump in
	// another package (internal/livetest): it queues with them.
	livetest.Lock(t)
	var ccas []string
	for _, n := range DatasetNames() {
		if n != excludedFromFidelity {
			ccas = append(ccas, n)
		}
	}
	c, warnings, err := Seed000(Seed000Options{CCAs: ccas, Kinds: []string{Dedicated},
		Cities: []string{"london", "mumbai", "ohio", "saopaulo", "sydney"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 {
		t.Skipf("CCAs not registered yet, fidelity over the nine is not defined: %v", warnings)
	}
	runs, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st := openTemp(t)
	if _, err := Execute(ctx, runs, st, Pool{}, Options{}); err != nil {
		t.Fatal(err)
	}
	flows, err := st.Flows(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	real, err := RealData()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Spearman(Compare(flows, real)) {
		if f.Kind != Dedicated {
			continue
		}
		t.Log(f)
		if len(f.CCAs) != 8 || !(f.Rho >= fidelityMin) {
			t.Errorf("%s: want ρ ≥ %.1f over 8 CCAs", f, fidelityMin)
		}
	}
}
