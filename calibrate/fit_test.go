package calibrate

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/leolab/leolab/campaign"
	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/internal/livetest"
	"github.com/leolab/leolab/profile"
)

// perturbed is the "dish" the recovery test measures: seed 001's uplink
// (seed001Uplink, on the Melbourne site's paths) with its base allocation
// ×0.6 and its AQM's max drop probability ×3.
var perturbed = map[string]float64{"uplink.alloc.base": 0.6 * 30e6, "uplink.aqm.max_prob": 3 * 0.25}

// seed001Uplink puts seed 001's uplink back under the site's fitted one:
// the fit starts from it, and the perturbed dish is built on it. From the
// site's fitted uplink instead (10.17 Mbit/s, 0.46, outage arrival loss
// 0.093) the same fit stalled at 13.8 Mbit/s and 0.46 after 80 evaluations
// (cost 1.37 -> 0.28), and with the site's AQM threshold of 4 packets
// kept under seed 001's other values at 16.1 Mbit/s and 0.51 (cost 3.79 ->
// 0.081); on profile starlink-seed001 (its 13/17 ms access, 10
// ms longer) it found 17.95 Mbit/s but max_prob 0.64: with 40 s runs of
// three CCAs in two cities the objective is flat in max_prob away from
// seed 001's start, which this test does not hide. Since the receiver
// stopped shrinking its offered window (session 23), one seed's objective
// is too rugged for the simplex: it stalled at 19.7 Mbit/s and 0.66 (cost
// 0.12 after 80 evaluations and 0.088 after 160, where the truth costs 0
// and its neighbour 0.66 at 18 Mbit/s 1.3). Three seeds smoothed it (19.43
// Mbit/s and 0.692) until the downlink's averaged AQM and random loss
// (session 24) moved the uplink flows' ACKs: then the fit stalled at 15.54
// Mbit/s and 0.704 (cost 0.058, the same after 120 evaluations and a
// restart), the truth's neighbours at 16, 17 and 19 Mbit/s costing 0.24,
// 0.13 and 0.21. Five seeds, as many as the real cells' runs, give 0.13,
// 0.04 and 0.14 there and recover 17.79 Mbit/s and 0.702.
var seed001Uplink = map[string]any{"uplink.alloc.base": "30Mbps", "uplink.aqm.max_prob": 0.25, "uplink.aqm.min_packets": 0,
	"uplink.aqm.sojourn": false, "uplink.outage.arrival_loss": 0, "uplink.drift.median_rate_change": "26Mbps"}

func testForward(t *testing.T, store string) *Forward {
	t.Helper()
	st, err := campaign.OpenStore(store)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &Forward{Fixed: seed001Uplink, CCAs: []string{"cubic", "bbr", "vegas"}, Cities: []string{"saopaulo", "london"},
		Directions: []string{"uplink"}, Kinds: []string{campaign.Dedicated}, Seeds: []uint64{1, 2, 3, 4, 5},
		Duration: 40 * time.Second, Exec: campaign.Pool{}, Store: st}
}

func testSpace(t *testing.T) Space {
	t.Helper()
	var s Space
	for _, a := range []string{"uplink.alloc.base=5Mbps:60Mbps:log", "uplink.aqm.max_prob=0.05:1:log"} {
		p, err := ParseParam(a)
		if err != nil {
			t.Fatal(err)
		}
		s = append(s, p)
	}
	return s
}

// measure runs fwd at the perturbed values and returns its cells as the
// "real" measurements.
func measure(t *testing.T, fwd *Forward, s Space, tie func([]float64) map[string]any) map[campaign.Key]campaign.Metrics {
	t.Helper()
	truth := []float64{perturbed[s[0].Path], perturbed[s[1].Path]}
	ov := s.Overrides(truth)
	for k, v := range tie(truth) {
		ov[k] = v
	}
	rows, err := fwd.Eval(context.Background(), ov, nil)
	if err != nil {
		t.Fatal(err)
	}
	real := map[campaign.Key]campaign.Metrics{}
	for _, r := range rows {
		real[r.Key] = r.Sim
	}
	return real
}

// TestFitRecoversPerturbedProfile is issue 17's acceptance 1: from its own
// simulated measurements of a perturbed profile, the fit recovers the
// perturbed values within 10 %; run again on the same store, it replays the
// same path without running anything.
func TestFitRecoversPerturbedProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ~80 forward-model evaluations")
	}
	// ~40 s of every core: it would starve a live emulator test's pump
	// running in another package at the same time (a fresh-clone CI run
	// saw kernel CUBIC's retransmissions jump from ~50 to 303 while this
	// test ran beside TestKernelVsSim), so it queues with them.
	livetest.Lock(t)
	store := filepath.Join(t.TempDir(), "fit.db")
	fwd := testForward(t, store)
	s := testSpace(t)
	sp, err := profile.Starlink("sydney", seed001Uplink)
	if err != nil {
		t.Fatal(err)
	}
	tie := DriftTie(s, sp)
	real := measure(t, fwd, s, tie)
	start, err := StartValues(s, "sydney", seed001Uplink)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Objective: Objective{Weights: DefaultWeights, Loss: "l2"}, MaxEvals: 80, Tie: tie}
	res, err := Fit(context.Background(), fwd, real, s, start, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s after %d evaluations: cost %.4f -> %.4f", res.Status, len(res.Evals), res.StartCost, res.BestCost)
	for i, p := range s {
		want := perturbed[p.Path]
		t.Logf("%s: start %s, fitted %s, truth %s", p.Path, p.Format(res.Start[i]), p.Format(res.Best[i]), p.Format(want))
		if math.Abs(res.Best[i]/want-1) > 0.10 {
			t.Errorf("%s = %s, want %s within 10 %%", p.Path, p.Format(res.Best[i]), p.Format(want))
		}
	}
	if !(res.BestCost < res.StartCost) {
		t.Errorf("cost %.4f -> %.4f: the fit did not improve", res.StartCost, res.BestCost)
	}

	// Resume: the same fit on the same store runs nothing and ends alike.
	ran := 0
	fwd2 := testForward(t, store)
	fwd2.Progress = func(p campaign.Progress) { ran = max(ran, p.Done) }
	again, err := Fit(context.Background(), fwd2, real, s, start, opt)
	if err != nil {
		t.Fatal(err)
	}
	if ran != 0 || len(again.Evals) != len(res.Evals) || again.BestCost != res.BestCost {
		t.Errorf("resumed fit ran %d runs, %d evaluations, cost %v; want 0, %d, %v", ran, len(again.Evals), again.BestCost, len(res.Evals), res.BestCost)
	}
}
