package paper000

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/internal/reporttest"
	"github.com/leolab/leolab/report"

	_ "github.com/leolab/leolab/cc/all" // the registry: PairRuns validates its scenarios
)

func TestPairRuns(t *testing.T) {
	runs, err := PairRuns(5, DefaultPairDuration)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 10 {
		t.Fatalf("%d runs, want 2 arrival patterns × 5 seeds", len(runs))
	}
	ids := map[string]bool{}
	for _, r := range runs {
		if ids[r.ID] {
			t.Fatalf("run %s: id %s repeats", r.Name(), r.ID)
		}
		ids[r.ID] = true
		staggered := strings.Contains(r.Scenario, "start: 30s")
		if staggered != (r.Kind == pairStaggered) {
			t.Errorf("run %s: scenario\n%s", r.Name(), r.Scenario)
		}
	}
	again, _ := PairRuns(5, DefaultPairDuration)
	if again[3].ID != runs[3].ID {
		t.Fatal("ids differ between two calls: the store could not resume")
	}
	if _, err := PairRuns(0, time.Minute); err == nil {
		t.Error("0 seeds: no error")
	}
	if _, err := PairRuns(1, PairStagger); err == nil {
		t.Error("a run no longer than the stagger: no error")
	}
}

// Two flows at 3:1: S = (0.75, 0.25), S* = 0.5.
func TestScoresOf(t *testing.T) {
	sc := scoresOf([]float64{300, 100})
	want := []ccaScores{{fairShare: 1.5, maxMin: 1, pf: 1 / 1.5, alpha0: 0.75}, {fairShare: 0.5, maxMin: 1.0 / 3, pf: 0.5, alpha0: 0.25}}
	for i, w := range want {
		g := sc[i]
		if math.Abs(g.fairShare-w.fairShare)+math.Abs(g.maxMin-w.maxMin)+math.Abs(g.pf-w.pf)+math.Abs(g.alpha0-w.alpha0) > 1e-12 {
			t.Errorf("flow %d: %+v, want %+v", i, g, w)
		}
	}
	if z := scoresOf([]float64{100, 0}); z[1].pf != 0 {
		t.Errorf("a starved flow's PF score %v, want 0", z[1].pf)
	}
}

// The real traces alone (no store) give Figs. 11–13 and the slot profile;
// every figure renders with axis labels, data and a legend.
func TestSectionsFromRealTraces(t *testing.T) {
	ts, err := RealTraces()
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 3 || ts[0].Epoch.IsZero() || len(ts[0].Flow.Intervals) < 290 {
		t.Fatalf("real traces: %d, first %+v", len(ts), ts[0].Epoch)
	}
	secs, err := Sections(Input{Traces: ts})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.RenderHTML(&b, &report.Report{Title: "t", Sections: secs}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, name := range []string{"fig11-real", "fig12-real-downlink", "fig12-real-uplink", "fig13-sydney-trace-base",
		"fig13-sydney-window-base", "slot-downlink-retransmissions", "slot-uplink-throughput"} {
		found := false
		for _, sec := range secs {
			for _, f := range sec.Figures {
				found = found || f.Name == name
			}
		}
		if !found {
			t.Errorf("no figure %s", name)
		}
	}
	reporttest.CheckFigures(t, html, 7)
	if !strings.Contains(html, "Differences from the paper") {
		t.Error("no differences section")
	}
}
