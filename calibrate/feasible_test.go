package calibrate

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/campaign"
)

// A point inside every parameter's bounds can still be an invalid profile
// (the adaptive AQM's max_prob, 0.05 here, may not fall below its floor):
// the fit records it as infeasible, runs nothing for it and goes on,
// instead of ending with the profile's error. From a floor of 0.04 in
// [0.01, 0.9] (log), Nelder–Mead's first vertex (0.5 in logit space) is a
// floor of 0.067.
func TestFitSkipsInfeasiblePoints(t *testing.T) {
	st, err := campaign.OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fwd := &Forward{Fixed: map[string]any{"downlink.aqm.max_prob_floor": 0.04}, CCAs: []string{"vegas"}, Cities: []string{"sydney"},
		Directions: []string{"downlink"}, Kinds: []string{campaign.Dedicated}, Seeds: []uint64{1},
		Duration: 10 * time.Second, Exec: campaign.Pool{}, Store: st}
	p, err := ParseParam("downlink.aqm.max_prob_floor=0.01:0.9:log")
	if err != nil {
		t.Fatal(err)
	}
	s := Space{p}
	rows, err := fwd.Eval(context.Background(), s.Overrides([]float64{0.04}), nil)
	if err != nil {
		t.Fatal(err)
	}
	real := map[campaign.Key]campaign.Metrics{}
	for _, r := range rows {
		real[r.Key] = r.Sim
	}
	res, err := Fit(context.Background(), fwd, real, s, []float64{0.04}, Options{MaxEvals: 4, Objective: Objective{Loss: "l2", Weights: DefaultWeights}})
	if err != nil {
		t.Fatalf("fit ended with %v, want it to skip the infeasible point", err)
	}
	skipped := 0
	for _, e := range res.Evals {
		if e.Infeasible != "" {
			skipped++
			if !math.IsInf(e.Cost, 1) || !strings.Contains(e.Infeasible, "max_prob") || e.Values[0] <= 0.05 {
				t.Errorf("eval %d: floor %.4f cost %v reason %q, want a floor above max_prob 0.05, +Inf and the profile's reason", e.N, e.Values[0], e.Cost, e.Infeasible)
			}
		} else if e.Values[0] > 0.05 {
			t.Errorf("eval %d: floor %.4f above max_prob 0.05 ran (cost %v)", e.N, e.Values[0], e.Cost)
		}
	}
	if skipped == 0 || res.Best[0] > 0.05 {
		t.Errorf("%d infeasible evaluations, best floor %.4f; want at least one skipped and a feasible best", skipped, res.Best[0])
	}
}
