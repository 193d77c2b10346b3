package paper003

import (
	"math"
	"strings"
	"testing"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/cc/lmbbr"
	"github.com/leolab/leolab/internal/simtest"
	"github.com/leolab/leolab/learn"
	"github.com/leolab/leolab/learn/closedloop"
)

// biasModel answers from its biases alone: logit ln 3 on one gain (UP
// 1.05, DOWN 0.98) and 0 on the other four, so p(that gain) = 3/7.
func biasModel() *lmbbr.Model {
	m := &lmbbr.Model{Format: lmbbr.LinearFormat, Version: lmbbr.LinearVersion, Features: lmbbr.FeatureNames[:],
		Phases: map[string]lmbbr.PhaseModel{}}
	for ph, key := range phaseKey {
		gains := learn.Feasible(ph)
		w := make([][]float64, len(gains))
		for k := range w {
			w[k] = make([]float64, lmbbr.NumFeatures)
		}
		top := 0
		if ph == learn.Down {
			top = len(gains) - 1
		}
		w[top][0] = math.Log(3)
		m.Phases[key] = lmbbr.PhaseModel{Gains: gains, Weights: w}
	}
	return m
}

// Cross-entropy by hand: UP has 5 gains, so p(1.05) = 3/7 and p(other) =
// 1/7; three 1.05 labels and one 1.10 give (3·ln(7/3) + ln 7)/4, and
// the labels' entropy is that of (3/4, 1/4). A label the model cannot
// answer is an error, not a silent zero.
func TestCrossEntropy(t *testing.T) {
	m := biasModel()
	x := lmbbr.Vector{1, 0, 0, 0}
	ex := []learn.Example{{Phase: learn.Up, X: x, Label: 1.05}, {Phase: learn.Up, X: x, Label: 1.05},
		{Phase: learn.Down, X: x, Label: 0.98}, {Phase: learn.Up, X: x, Label: 1.05}, {Phase: learn.Up, X: x, Label: 1.10}}
	ce, h, err := crossEntropy(m, ex, learn.Up)
	if err != nil {
		t.Fatal(err)
	}
	if want := (3*math.Log(7.0/3) + math.Log(7)) / 4; math.Abs(ce-want) > 1e-12 {
		t.Errorf("UP cross-entropy %.6f, want %.6f", ce, want)
	}
	if want := -(0.75*math.Log(0.75) + 0.25*math.Log(0.25)); math.Abs(h-want) > 1e-12 {
		t.Errorf("UP label entropy %.6f, want %.6f", h, want)
	}
	// DOWN's one example: ln(7/3), and one label has no entropy.
	if ce, h, err := crossEntropy(m, ex, learn.Down); err != nil || math.Abs(ce-math.Log(7.0/3)) > 1e-12 || h != 0 {
		t.Errorf("DOWN: %g, %g, %v; want ln(7/3), 0", ce, h, err)
	}
	bad := append(ex, learn.Example{Phase: learn.Down, X: x, Label: 0.91})
	if _, _, err := crossEntropy(m, bad, learn.Down); err == nil || !strings.Contains(err.Error(), "label 0.91") {
		t.Errorf("a label outside the model's gains: %v", err)
	}
}

// The surrogate evaluation of a simulated Tokyo BBRv3 downlink flow with
// the bias model (UP always 1.05, DOWN always 0.98): its accuracy is the
// share of labels it answers; its UP gains are const105's, so the two
// differ only in DOWN, where eq. 22 gives the model exactly 0.07·B_cap
// more and eq. 26 more retransmissions; the measured mean is the flow's
// own; other cities' flows and empty panels are left out.
func TestEvaluateSurrogate(t *testing.T) {
	res := simtest.Run(t, "version: 1\nname: tokyo-bbr\nduration: 60s\nseed: 1\ninterval: 1s\n"+
		"path: {profile: starlink, city: tokyo, direction: downlink}\nflows: [{cca: bbr3}]\n")
	cell := Cell{campaign.Dedicated, "downlink", HeldOut, "bbr"}
	other := Cell{campaign.Dedicated, "downlink", "sydney", "bbr"}
	sim := []Flow{{Cell: cell, Seed: 1, Flow: res.Flows[0]}, {Cell: other, Seed: 1, Flow: res.Flows[0]}}
	m := biasModel()
	ps, err := EvaluateSurrogate(m, sim)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].Kind != campaign.Dedicated || ps[0].Direction != "downlink" || ps[0].Flows != 1 {
		t.Fatalf("panels %+v, want the one Tokyo downlink independent panel of one flow", ps)
	}
	p := ps[0]
	pool := learn.NewPool()
	if err := pool.AddFlow(learn.Source{Location: HeldOut}, res.Flows[0]); err != nil {
		t.Fatal(err)
	}
	if p.Intervals != len(pool.Rows) || p.Intervals < 55 {
		t.Fatalf("%d intervals, pool has %d (want ≈ 60)", p.Intervals, len(pool.Rows))
	}
	var up, up105, down int
	var downCap float64
	for _, r := range pool.Rows {
		switch r.Phase {
		case learn.Up:
			up++
			if r.Mapped == 1.05 {
				up105++
			}
		case learn.Down:
			down++
			downCap += r.Refs.BRef
		}
	}
	if up == 0 || down == 0 {
		t.Fatalf("%d UP and %d DOWN intervals: the flow did not probe", up, down)
	}
	if e := p.Evals[0]; e.Phase != learn.Up || e.N != up || e.Correct != up105 {
		t.Errorf("UP: %d of %d correct, want %d of %d (the 1.05 labels)", e.Correct, e.N, up105, up)
	}
	n := float64(p.Intervals)
	if d, want := p.Model.Mbps-p.Const105.Mbps, (0.98-stockDownGain)*downCap/n/1e6; math.Abs(d-want) > 1e-9*want {
		t.Errorf("model − const105 surrogate throughput %.6f Mbit/s, want 0.07·ΣB_cap(DOWN)/n = %.6f", d, want)
	}
	if !(p.Model.Retrans >= p.Const105.Retrans) || !(p.Const105.Retrans < p.Stock.Retrans) {
		t.Errorf("surrogate retransmissions: model %.2f, const105 %.2f, stock %.2f; want model ≥ const105 < stock",
			p.Model.Retrans, p.Const105.Retrans, p.Stock.Retrans)
	}
	// The measured mean per interval is the flow's throughput (its last,
	// possibly short, interval aside: 2 %).
	if f := res.Flows[0].ThroughputMbps; math.Abs(p.Measured.Mbps/f-1) > 0.02 {
		t.Errorf("measured %.2f Mbit/s per interval, the flow's mean is %.2f", p.Measured.Mbps, f)
	}
}

// ClosedPlans: quick two cities, full all six (issue 21's 12 cells, Tokyo
// first) × two directions, the three arms against bbr, quick and full
// seeds; every plan validates.
func TestClosedPlans(t *testing.T) {
	for _, full := range []bool{false, true} {
		ps := ClosedPlans(full, 0)
		cells := map[bool]int{false: 4, true: 12}[full]
		if len(ps) != cells || ps[0].City != HeldOut {
			t.Fatalf("%d plans starting at %s, want %d starting at %s", len(ps), ps[0].City, cells, HeldOut)
		}
		want := map[bool]int{false: ClosedQuickSeeds, true: ClosedFullSeeds}[full]
		for _, p := range ps {
			if err := p.Validate(); err != nil {
				t.Error(err)
			}
			if p.Seeds != want || p.Duration != closedloop.DefaultDuration || p.Ref != closedloop.ArmBBR {
				t.Errorf("plan %+v", p)
			}
		}
		runs, err := ClosedRuns(ps)
		if err != nil || len(runs) != cells*len(ClosedArms)*want {
			t.Errorf("%d runs (%v), want %d", len(runs), err, cells*len(ClosedArms)*want)
		}
	}
}
