package paper002

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
)

// The topology figures end to end (CUBIC, 2 runs; the parking lots 20 s,
// Fig. 8 its fixed 300 s): the allocations are those of the setups'
// physics, and the figures and their findings are in the report.
func TestTopologyStudy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs six simulations of 20–300 s")
	}
	dir := t.TempDir()
	parts, err := Plan(Options{Dir: dir, Runs: 2, Duration: 20 * time.Second, CCAs: []string{"cubic"},
		Figures: []string{"fig7", "fig8", "fig9b"}})
	if err != nil {
		t.Fatal(err)
	}
	var runs []campaign.Run
	for _, p := range parts {
		runs = append(runs, p.Runs...)
	}
	if len(runs) != 6 {
		t.Fatalf("%d runs, want 3 figures × 2", len(runs))
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
	rep, err := Report(d, parts, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := d.Findings
	// SFQ at every hop: the max–min allocation (long flow 10 Mbit/s of
	// link rate, 9.65 of goodput after 52 B of headers per 1500 B packet;
	// slow start costs a little of 20 s), so Jain over the shares is 1.
	if e := f["fig9b.long.cubic"]; e.Mean < 8.8 || e.Mean > 9.66 {
		t.Errorf("SFQ parking lot: long flow %s Mbit/s, want 8.8–9.66 (max–min 10 less headers)", pm(e, 2))
	}
	if e := f["fig9b.jainmm.cubic"]; e.Mean < 0.99 {
		t.Errorf("SFQ parking lot: Jain over max–min shares %s, want ≥ 0.99", pm(e, 3))
	}
	// Drop-tail: the long flow, with 3× the RTT and three queues to lose
	// at, gets well under half its share, and what it leaves hop2 and hop3
	// fill, so the aggregate exceeds the max–min one (at most 120/100).
	if e := f["fig7.long.cubic"]; e.Mean > 5 {
		t.Errorf("drop-tail parking lot: long flow %s Mbit/s, want < 5 (half its max–min share)", pm(e, 2))
	}
	if a, b := f["fig7.agg.cubic"], f["fig9b.agg.cubic"]; !(a.Mean > b.Mean) || a.Mean > 1.2 {
		t.Errorf("aggregate/100: drop-tail %s, SFQ %s; want drop-tail above SFQ and ≤ 1.2", pm(a, 3), pm(b, 3))
	}
	// Fig. 8: on separate paths the 50 ms pair gets less than the 20 ms pair
	// (RTT unfairness; CUBIC's RTT-independent growth keeps it above Reno's
	// (20/50) = 0.4); all four on one path share evenly; the 1-BDP buffer
	// keeps the link busy in every phase.
	if e := f["fig8.moved.cubic.1"]; e.Mean < 0.4 || e.Mean > 0.95 {
		t.Errorf("fig8 before the move: 50 ms / 20 ms pair %s, want 0.4–0.95", pm(e, 2))
	}
	if e := f["fig8.jain.cubic.2"]; e.Mean < 0.95 {
		t.Errorf("fig8 all on the 20 ms path: Jain %s, want ≥ 0.95", pm(e, 3))
	}
	for i := 1; i <= 3; i++ {
		if e := f[fmt.Sprintf("fig8.agg.cubic.%d", i)]; e.Mean < 0.9 || e.Mean > 0.966 {
			t.Errorf("fig8 phase %d: aggregate/50 Mbit/s %s, want 0.9–0.966 (goodput ≤ 1448/1500 of the link)", i, pm(e, 3))
		}
	}
	var figs int
	for _, s := range rep.Sections {
		for _, fig := range s.Figures {
			figs++
			if len(fig.Name) == 0 {
				t.Errorf("%s: a figure without a name", s.Title)
			}
		}
	}
	if figs != 2+2+2 { // parking lots: agg/Jain and flows; fig8: agg/Jain and goodput
		t.Errorf("%d figures, want 6", figs)
	}
	if err := report.Write(filepath.Join(dir, "out"), rep); err != nil {
		t.Fatal(err)
	}
}

// Finding 4's multiple-bottleneck half and finding 5's parking lot read
// the topology figures' numbers (set by hand: the verdict logic only).
func TestTopologyFindings(t *testing.T) {
	d := &Data{Findings: map[string]metrics.Estimate{}}
	set := func(k string, m, ci float64) { d.Findings[k] = metrics.Estimate{Mean: m, CI: ci, N: 5} }
	for _, cca := range []string{"cubic", "bbr3"} {
		set("fig5.ratio."+cca+".50", 0.95, 0.02)
		set("fig5.ratio."+cca+".200", 0.5, 0.05)
		set("fig7.long."+cca, 2, 1)
		set("fig7.jainmm."+cca, 0.8, 0.05)
		set("fig9b.long."+cca, 9.6, 0.01)
		set("fig9b.jainmm."+cca, 1, 0.001)
		set("fig8.moved."+cca+".1", 0.76, 0.05)
		set("fig8.jain."+cca+".1", 0.9, 0.02)
		set("fig8.jain."+cca+".2", 0.99, 0.01)
	}
	fs := d.findings()
	if len(fs) != 1 || fs[0].verdict != "holds here" || !strings.Contains(fs[0].numbers, "parking lot") || !strings.Contains(fs[0].numbers, "2.00 ± 1.00") {
		t.Fatalf("finding 4: %+v", fs)
	}
	// A long flow above its share (BBRv3 here) contradicts the half.
	set("fig7.long.cubic", 9.9, 0.05)
	set("fig7.long.bbr3", 10.5, 0.3)
	if v := d.findings()[0].verdict; v != "holds in part here" {
		t.Errorf("long flows at their share: verdict %q", v)
	}
	delete(d.Findings, "fig7.long.cubic")
	delete(d.Findings, "fig7.long.bbr3")
	if v := d.findings()[0].verdict; !strings.Contains(v, "not tested (Fig. 7 not run)") {
		t.Errorf("without Fig. 7: verdict %q", v)
	}
}
