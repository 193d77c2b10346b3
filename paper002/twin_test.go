package paper002

import (
	"testing"
	"time"

	"github.com/leolab/leolab/campaign"
)

// A live part's twin is the same scenario text on the simulator, under
// another id; the table sets a run beside its twin (here the simulator
// beside itself: every ratio 1).
func TestSimTwins(t *testing.T) {
	parts, err := Plan(Options{Engine: EngineEmu, Dir: t.TempDir(), Runs: 1, Duration: 4 * time.Second, CCAs: []string{"cubic"}})
	if err != nil {
		t.Fatal(err)
	}
	keepDisciplines(parts, "fq_codel")
	twins, err := SimTwins(parts)
	if err != nil || len(twins) != len(parts) {
		t.Fatalf("%d twins of %d parts: %v", len(twins), len(parts), err)
	}
	for i, tp := range twins {
		if tp.Campaign.Engine != EngineSim || parts[i].Campaign.Engine != EngineEmu {
			t.Errorf("%s: twin on %s, part on %s", tp.File, tp.Campaign.Engine, parts[i].Campaign.Engine)
		}
		byText := map[string]campaign.Run{}
		for _, r := range tp.Runs {
			byText[r.Scenario] = r
		}
		for _, r := range parts[i].Runs {
			tw, ok := byText[r.Scenario]
			if !ok || tw.ID == r.ID || tw.Engine != EngineSim {
				t.Errorf("%s: no sim twin with its own id (%v, %s)", r.Name(), ok, tw.ID)
			}
		}
	}
	// keepDisciplines ran on parts only: the twin has all eight, the
	// table matches the one kept.
	d := runPlan(t, parts, campaign.Sim{})
	d.Twin, d.TwinParts = runPlan(t, twins, campaign.Sim{}), twins
	rows := d.twinRows(parts)
	if len(rows) != 2 || rows[1].point != "path.queue.discipline=fq_codel" { // fig1 cubic, fig9c cubic fq_codel
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		for i, m := range twinMetrics {
			if r.emu[i].Mean != r.sim[i].Mean || r.emu[i].Mean <= 0 {
				t.Errorf("%s %s: %s %v beside its twin %v, want the same positive number", r.figure, r.point, m.key, r.emu[i], r.sim[i])
			}
		}
	}
	if tab, ok := d.twinTable(parts); !ok || len(tab.Rows) != 2 {
		t.Errorf("table: %d rows", len(tab.Rows))
	}
}
