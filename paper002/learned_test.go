package paper002

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/campaign"
)

// The learned schemes run where finding 3 reads them — the LeoEM-path,
// step and random-loss campaigns — and Orca, Astraea and Sage nowhere
// else (Vivace stays in the fairness, topology and AQM figures too). The
// quick study is 580 runs.
func TestPlanLearnedSchemes(t *testing.T) {
	parts, err := Plan(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	withOrca := []string{"fig1-leoem-single.yaml", "fig2-leoem-two-flows.yaml", "fig3-bandwidth-step.yaml", "fig4-rtt-step.yaml", "loss.yaml"}
	runs := 0
	for _, p := range parts {
		runs += len(p.Runs)
		ccas := p.Campaign.Axes.CCA
		if !slices.Contains(ccas, "pcc") {
			t.Errorf("%s: schemes %v lack pcc", p.File, ccas)
		}
		for _, rl := range []string{"orca", "astraea", "sage"} {
			if got, want := slices.Contains(ccas, rl), slices.Contains(withOrca, p.File); got != want {
				t.Errorf("%s: schemes %v, %s wanted %v", p.File, ccas, rl, want)
			}
		}
	}
	if runs != 580 {
		t.Errorf("quick study: %d runs, want 580", runs)
	}
}

// Orca (CUBIC underneath, its window rescaled by the retrained actor)
// through the study's random-loss campaign, 2 runs × 10 s: at 1 % i.i.d.
// loss CUBIC is held near its Mathis bound (1.22·MSS/(RTT·√p) ≈ 2.9 Mbit/s
// at 50 ms) while Orca's actor, which overwrites CUBIC's window every 20 ms
// from the period's throughput and delay, keeps several times CUBIC's goodput; without
// loss neither exceeds the 100 Mbit/s link.
func TestOrcaUnderRandomLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 12 short simulations")
	}
	dir := t.TempDir()
	parts, err := Plan(Options{Dir: dir, Runs: 2, Duration: 10 * time.Second, CCAs: []string{"cubic", "orca"}, Figures: []string{"loss"}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := campaign.OpenStore(filepath.Join(dir, "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	if _, err := campaign.Execute(ctx, parts[0].Runs, st, campaign.Pool{}, campaign.Options{}); err != nil {
		t.Fatal(err)
	}
	d, err := Load(ctx, st, parts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Report(d, parts, nil); err != nil {
		t.Fatal(err)
	}
	cub, orca := d.Findings["loss.goodput.cubic.0.01"], d.Findings["loss.goodput.orca.0.01"]
	if orca.N != 2 || cub.Mean > 6 || orca.Mean < 5*cub.Mean {
		t.Errorf("1 %% loss: CUBIC %+v (want ≤ 6 Mbit/s), Orca %+v (want 2 runs, > 5× CUBIC)", cub, orca)
	}
	if e := d.Findings["loss.goodput.orca.0"]; e.Mean <= 0 || e.Mean > stepRateMbps {
		t.Errorf("no loss: Orca %+v, want (0, 100] Mbit/s", e)
	}
}
