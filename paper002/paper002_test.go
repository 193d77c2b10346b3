package paper002

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/campaign"
	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/report"
)

// The campaign files under examples/ are the embedded ones, and they load
// from there too (their LeoEM files are ../leoem/).
func TestExamplesAreTheCampaigns(t *testing.T) {
	seen := 0
	for _, f := range Figures() {
		if f.File == "" {
			if f.Needs == "" {
				t.Errorf("%s: neither a campaign nor what it needs", f.ID)
			}
			continue
		}
		seen++
		want, err := campaignFS.ReadFile(CampaignDir + "/" + f.File)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("..", "examples", "seed002", "campaigns", f.File)
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from paper002/campaigns/%s (copy it): %v", path, f.File, err)
			continue
		}
		c, err := campaign.Load(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if len(c.Seeds) != FullRuns {
			t.Errorf("%s: %d runs per point, want the full study's %d", path, len(c.Seeds), FullRuns)
		}
	}
	if seen < 8 {
		t.Errorf("%d figures with campaigns", seen)
	}
}

// Plan refuses an unknown figure id, naming the allowed ones.
func TestPlanUnknownFigure(t *testing.T) {
	_, err := Plan(Options{Dir: t.TempDir(), Figures: []string{"fig99"}})
	if err == nil || !strings.Contains(err.Error(), "fig99") || !strings.Contains(err.Error(), "fig9c") {
		t.Errorf("error %v", err)
	}
}

// A small study end to end (2 runs × 6 s, CUBIC and Vivace): the numbers
// the figures report are the physics of their setups, and the report has
// every figure and the findings it can judge.
func TestSmallStudy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ~70 short simulations")
	}
	dir := t.TempDir()
	parts, err := Plan(Options{Dir: dir, Runs: 2, Duration: 6 * time.Second, CCAs: []string{"cubic", "pcc"},
		Figures: []string{"fig1", "fig5", "fig9a", "loss"}})
	if err != nil {
		t.Fatal(err)
	}
	var runs []campaign.Run
	for _, p := range parts {
		runs = append(runs, p.Runs...)
	}
	// fig1: 2 ccas × 2 runs; fig5/9a: 2 × 4 RTTs × 2 disciplines × 2; loss: 2 × 3 × 2.
	if want := 4 + 32 + 12; len(runs) != want {
		t.Fatalf("%d runs, want %d", len(runs), want)
	}
	st, err := campaign.OpenStore(filepath.Join(dir, "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	if _, err := campaign.Execute(ctx, runs, st, campaign.Pool{}, campaign.Options{}); err != nil {
		t.Fatal(err)
	}
	d, err := Load(ctx, st, parts)
	if err != nil {
		t.Fatal(err)
	}
	// The LeoEM path's base RTT: 2 × 21–33 ms one way (the path file).
	if n := len(d.BaseRTTMs); n != 6 || d.BaseRTTMs[0] < 42 || d.BaseRTTMs[0] > 66 {
		t.Errorf("base RTT %v, want 6 s of 42–66 ms", d.BaseRTTMs)
	}
	rep, err := Report(d, parts, nil)
	if err != nil {
		t.Fatal(err)
	}
	// CUBIC alone on the 150 Mbit/s LeoEM path: more than half the link in
	// 6 s (slow start over a ~50 ms RTT takes under a second), never more.
	if e := d.Findings["fig1.goodput.cubic"]; e.N != 2 || e.Mean < 75 || e.Mean > leoemRateMbps {
		t.Errorf("fig1 CUBIC goodput %+v, want 2 runs of 75–150 Mbit/s", e)
	}
	// Two CUBIC flows of equal RTT behind SFQ split the link evenly (SFQ's
	// round robin: ratio ≥ 0.9); with a 150 ms longer second flow behind
	// drop-tail, the short flow wins (ratio < the SFQ one's).
	eq, sfq200, dt200 := d.Findings["fig9a.ratio.cubic.50"], d.Findings["fig9a.ratio.cubic.200"], d.Findings["fig5.ratio.cubic.200"]
	if eq.Mean < 0.9 || eq.Mean > 1 {
		t.Errorf("equal RTTs under SFQ: ratio %+v, want ≥ 0.9", eq)
	}
	if !(dt200.Mean < sfq200.Mean) {
		t.Errorf("200 ms asymmetry: drop-tail ratio %.3f not below SFQ's %.3f", dt200.Mean, sfq200.Mean)
	}
	// 1 % random loss: CUBIC's Mathis bound is 1.22·MSS/(RTT·√p) ≈ 2.9
	// Mbit/s at 50 ms; Vivace's utility tolerates 5 % loss and keeps most
	// of the link (over 10× CUBIC).
	cub, viv := d.Findings["loss.goodput.cubic.0.01"], d.Findings["loss.goodput.pcc.0.01"]
	if cub.Mean > 6 || viv.Mean < 10*cub.Mean {
		t.Errorf("1 %% loss: CUBIC %.2f Mbit/s (want ≤ 6), Vivace %.2f (want > 10× CUBIC)", cub.Mean, viv.Mean)
	}
	var figs, tables int
	titles := map[string]bool{}
	for _, s := range rep.Sections {
		figs += len(s.Figures)
		tables += len(s.Tables)
		titles[s.Title] = true
	}
	if figs != 5 || tables != 5 { // fig1: goodput and RTT; fig5, fig9a, loss: one each; tables: four figures + findings
		t.Errorf("%d figures and %d tables", figs, tables)
	}
	for _, f := range Figures() {
		if f.Needs != "" && !titles[f.Title] {
			t.Errorf("%s (needs topologies) not listed in the report", f.ID)
		}
	}
	if len(d.Verdicts()) == 0 {
		t.Error("no finding judged")
	}
	if err := report.Write(filepath.Join(dir, "out"), rep); err != nil {
		t.Fatal(err)
	}
}
