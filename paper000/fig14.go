package paper000

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
)

// ccaScores are one CCA's Fig. 14 scores in one concurrent run.
type ccaScores struct {
	fairShare, maxMin, pf, alpha0 float64
}

// scoresOf computes each flow's scores from the throughputs of one
// concurrent run (seed 000 §fairness):
//
//	fair-share score  S_i / S*, S_i = T_i/ΣT, S* = 1/N (1 = Fig. 10's fair-share line)
//	max–min closeness T_i / max_j T_j                     (the seed's equation)
//	α = 0 share       F_i^{α=0} = S_i                      (the seed's equation)
//	PF score          min(S_i/S*, S*/S_i) = exp(−|ln(S_i/S*)|)
//
// The seed's per-flow PF equation is lost; it says the score shows "how its
// proportional-fairness contribution compares with the ideal allocation"
// and that BBRv3 has "one of the highest PF-normalized scores" while its
// share is below the aggressive CCAs', which rules out any score rising
// with S_i. Ours is the flow's log-utility term ln(S_i/S*) (the summand of
// metrics.Fairness.PF) folded so over- and under-capture score alike: 1 at
// the fair share.
func scoresOf(t []float64) []ccaScores {
	al := metrics.Allocation(t)
	out := make([]ccaScores, len(t))
	for i := range t {
		g := al.ShareGain[i]
		pf := 0.0
		if g > 0 {
			pf = math.Min(g, 1/g)
		}
		out[i] = ccaScores{fairShare: g, maxMin: al.MaxMin[i], pf: pf, alpha0: al.Shares[i]}
	}
	return out
}

// scoreNames label the four scores (figures, table keys).
var scoreNames = []struct{ key, title string }{
	{"fair_share", "fair-share score S_i/S*"}, {"max_min", "max–min closeness T_i/max T"},
	{"pf", "PF score min(S_i/S*, S*/S_i)"}, {"alpha0", "α=0 share S_i"},
}

func (c ccaScores) get(k int) float64 {
	return [...]float64{c.fairShare, c.maxMin, c.pf, c.alpha0}[k]
}

// sideScores computes the scores of every CCA of one direction's concurrent
// cells, per city, on one side (simulated or real); CCAs without a value in
// a city are left out of its allocation.
func sideScores(rows []campaign.Row, dir string, get func(campaign.Row) campaign.Metrics) map[string]map[string]ccaScores {
	byCity := map[string][]campaign.Row{}
	var cities []string
	for _, r := range rows {
		m := get(r)
		if r.Kind != campaign.Concurrent || r.Direction != dir || m.N == 0 || math.IsNaN(m.ThroughputMbps) {
			continue
		}
		if _, ok := byCity[r.City]; !ok {
			cities = append(cities, r.City)
		}
		byCity[r.City] = append(byCity[r.City], r)
	}
	out := map[string]map[string]ccaScores{}
	for _, city := range cities {
		cells := byCity[city]
		t := make([]float64, len(cells))
		for i, r := range cells {
			t[i] = get(r).ThroughputMbps
		}
		out[city] = map[string]ccaScores{}
		for i, sc := range scoresOf(t) {
			out[city][cells[i].CCA] = sc
		}
	}
	return out
}

// fig14 is the per-CCA fairness scores of the concurrent runs, downlink and
// uplink, simulated next to real, averaged over the cities where both exist.
func fig14(rows []campaign.Row) (report.Section, []string, error) {
	s := report.Section{Title: "Fig. 14: per-CCA fairness scores in the concurrent runs"}
	s.Text = []string{"Per concurrent run (all CCAs at once on one path), from each CCA's mean throughput T_i (seed 000 " +
		"§fairness): the fair-share score S_i/S* with S_i = T_i/ΣT and S* = 1/N; the max–min closeness T_i/max T; the α=0 " +
		"share F_i = S_i; and a PF score min(S_i/S*, S*/S_i) — the seed lost its per-flow PF equation, and its prose (BBRv3 " +
		"among the highest PF scores while below the aggressive CCAs in share) needs a score that peaks at the fair share, " +
		"so this is our definition. Scores are averaged over the cities with both simulated and real concurrent runs " +
		"(Tokyo has no real data); each side's allocation is over the nine CCAs it ran (ccp, Copa through a broken CCP " +
		"deployment, is on both sides a flow held at its 10-segment initial window: cc/fixed)."}
	tab := report.Table{Title: "Per-CCA fairness scores (mean over cities)", Name: "fig14-scores", Columns: []report.Column{
		{Key: "direction", Title: "direction", Kind: report.Text}, {Key: "cca", Title: "CCA", Kind: report.Text},
		{Key: "cities", Title: "cities", Kind: report.Int},
	}}
	for _, n := range scoreNames {
		tab.Columns = append(tab.Columns,
			report.Column{Key: "sim_" + n.key, Title: "sim " + n.title, Kind: report.Float, Digits: 2},
			report.Column{Key: "real_" + n.key, Title: "real " + n.title, Kind: report.Float, Digits: 2})
	}
	var notes []string
	for _, dir := range []string{"downlink", "uplink"} {
		sim := sideScores(rows, dir, func(r campaign.Row) campaign.Metrics { return r.Sim })
		real := sideScores(rows, dir, func(r campaign.Row) campaign.Metrics { return r.Real })
		ccas := ccaOrder(rows, dir)
		if len(ccas) == 0 {
			continue
		}
		means := make([][2][4]float64, len(ccas))
		for ci, cca := range ccas {
			n := 0
			for _, city := range slices.Sorted(maps.Keys(sim)) { // sorted: float sums in a fixed order
				sc := sim[city]
				rs, ok := real[city]
				if !ok {
					continue
				}
				a, okA := sc[cca]
				b, okB := rs[cca]
				if !okA || !okB {
					continue
				}
				n++
				for k := range scoreNames {
					means[ci][0][k] += a.get(k)
					means[ci][1][k] += b.get(k)
				}
			}
			row := []report.Cell{report.Str(dir), report.Str(cca), report.Count(int64(n))}
			for k := range scoreNames {
				if n == 0 {
					means[ci][0][k], means[ci][1][k] = math.NaN(), math.NaN()
				} else {
					means[ci][0][k] /= float64(n)
					means[ci][1][k] /= float64(n)
				}
				row = append(row, report.Num(means[ci][0][k]), report.Num(means[ci][1][k]))
			}
			tab.Rows = append(tab.Rows, row)
		}
		for k, sn := range scoreNames {
			sv, rv := make([]float64, len(ccas)), make([]float64, len(ccas))
			for ci := range ccas {
				sv[ci], rv[ci] = means[ci][0][k], means[ci][1][k]
			}
			var refs []report.RefLine
			if k == 0 || k == 2 {
				refs = []report.RefLine{{Y: 1, Label: "fair share"}}
			}
			f, err := report.CategoryBars(fmt.Sprintf("Fig. 14 (%s concurrent): %s", dir, sn.title), sn.title, ccas,
				[]report.BarSeries{{Name: "simulated", Values: sv}, {Name: "real", Values: rv}}, refs)
			if err != nil {
				return s, nil, err
			}
			f.Name = "fig14-" + dir + "-" + strings.ReplaceAll(sn.key, "_", "-")
			f.Caption = fmt.Sprintf("%s, %s concurrent runs, mean over cities with both sides. The paper (Fig. 14): %s",
				sn.title, dir, paperFig14[dir])
			s.Figures = append(s.Figures, f)
		}
		notes = append(notes, fig14Note(dir, ccas, means))
	}
	s.Tables = append(s.Tables, tab)
	return s, notes, nil
}

// paperFig14 is what seed 000 says of BBRv3 in Fig. 14.
var paperFig14 = map[string]string{
	"downlink": "BBRv3 has one of the highest PF scores, but its fair-share, max–min and α=0 scores are below LeoCC, PCC, BBRv1 and BBRv2.",
	"uplink":   "BBRv3 has a high fair-share and PF score and a share close to the ideal; its max–min score is below LeoCC, PCC, Copa and BBRv1.",
}

// fig14Note ranks BBRv3's PF score among the CCAs on both sides.
func fig14Note(dir string, ccas []string, means [][2][4]float64) string {
	rank := func(side int) int {
		bi := -1
		for i, c := range ccas {
			if c == bbr {
				bi = i
			}
		}
		if bi < 0 || math.IsNaN(means[bi][side][2]) {
			return 0
		}
		r := 1
		for i := range ccas {
			if i != bi && means[i][side][2] > means[bi][side][2] {
				r++
			}
		}
		return r
	}
	return fmt.Sprintf("Fig. 14, %s: BBRv3's PF score ranks %d of %d simulated, %d of %d real (paper: %s).",
		dir, rank(0), len(ccas), rank(1), len(ccas), paperFig14[dir])
}

// ccaOrder is the CCAs of one direction's concurrent rows in row order.
func ccaOrder(rows []campaign.Row, dir string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Kind == campaign.Concurrent && r.Direction == dir && !seen[r.CCA] {
			seen[r.CCA] = true
			out = append(out, r.CCA)
		}
	}
	return out
}
