package paper000

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
	"github.com/leolab/leolab/result"
)

// PairResult is one stored Fig. 15 run.
type PairResult struct {
	Run campaign.Run
	Res *result.Result
}

// LoadPairs reads the stored two-flow runs; missing ones are an error,
// since the caller has just run them.
func LoadPairs(ctx context.Context, st *campaign.Store, runs []campaign.Run) ([]PairResult, error) {
	out := make([]PairResult, 0, len(runs))
	for _, r := range runs {
		res, err := st.Result(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		if len(res.Flows) != 2 {
			return nil, fmt.Errorf("paper000: run %s: %d flows, want 2", r.Name(), len(res.Flows))
		}
		out = append(out, PairResult{Run: r, Res: res})
	}
	return out, nil
}

// pairMetric is one of the seed's Fig. 15 numbers.
type pairMetric struct {
	key, title string
	paper      map[string]float64 // by mode
	get        func(metrics.PhaseSummary) float64
}

// pairMetrics are the seed's two-flow values (§two-flow): mean
// instantaneous Jain, PF and max–min, the mean-rate ratio T̄1/T̄2 and the
// α=0 utility T̄1+T̄2 in Mbit/s.
var pairMetrics = []pairMetric{
	{"jain", "Jain", map[string]float64{pairSimultaneous: 0.949, pairStaggered: 0.909}, func(s metrics.PhaseSummary) float64 { return s.Jain }},
	{"pf", "PF", map[string]float64{pairSimultaneous: 0.946, pairStaggered: 0.907}, func(s metrics.PhaseSummary) float64 { return s.PF }},
	{"max_min", "max–min", map[string]float64{pairSimultaneous: 0.761, pairStaggered: 0.637}, func(s metrics.PhaseSummary) float64 { return s.MinMax }},
	{"ratio", "flow ratio T̄1/T̄2", map[string]float64{pairSimultaneous: 0.992, pairStaggered: 1.258}, func(s metrics.PhaseSummary) float64 { return s.Ratio }},
	{"alpha0_mbps", "α=0 utility (Mbit/s)", map[string]float64{pairSimultaneous: 197.30, pairStaggered: 242.52}, func(s metrics.PhaseSummary) float64 { return s.Alpha0 / 1e6 }},
}

// overlap trims both flows to the intervals after the later start, where
// the two compete (the staggered second flow's earlier intervals are empty).
func overlap(res *result.Result) (result.Flow, result.Flow) {
	from := math.Max(res.Flows[0].StartS, res.Flows[1].StartS)
	trim := func(f result.Flow) result.Flow {
		g := f
		g.Intervals = nil
		for _, iv := range f.Intervals {
			if iv.T > from {
				g.Intervals = append(g.Intervals, iv)
			}
		}
		g.StartS = from
		return g
	}
	return trim(res.Flows[0]), trim(res.Flows[1])
}

// Fig15Stats are one mode's per-seed summaries.
type Fig15Stats struct {
	Mode  string
	Seeds []uint64
	Runs  []metrics.PhaseSummary
}

// spread is the mean, sample standard deviation, minimum and maximum.
func spread(v []float64) (mean, sd, lo, hi float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN(), math.NaN(), math.NaN()
	}
	mean = metrics.Mean(v)
	for _, x := range v {
		sd += (x - mean) * (x - mean)
	}
	if len(v) > 1 {
		sd = math.Sqrt(sd / float64(len(v)-1))
	}
	return mean, sd, slices.Min(v), slices.Max(v)
}

// fig15 builds the two-flow section: the spread over seeds next to the
// paper's table, and for the lowest seed of each mode the phase plane and
// the instantaneous indices over time.
func fig15(pairs []PairResult) (report.Section, []string, error) {
	s := report.Section{Title: "Fig. 15: two BBRv3 flows on the Sydney downlink, simultaneous and staggered by 30 s"}
	var stats []Fig15Stats
	for _, m := range pairModes {
		st := Fig15Stats{Mode: m.kind}
		for _, p := range pairs {
			if p.Run.Kind != m.kind {
				continue
			}
			a, b := overlap(p.Res)
			_, sum := metrics.PhasePlane(a, b)
			st.Seeds = append(st.Seeds, p.Run.Seed)
			st.Runs = append(st.Runs, sum)
		}
		stats = append(stats, st)
	}
	dur := 0.0
	if len(pairs) > 0 {
		dur = pairs[0].Res.DurationS
	}
	s.Text = []string{fmt.Sprintf("Two BBRv3 flows, Sydney → Melbourne over the simulated Starlink downlink, %.0f s runs, started together "+
		"or the second %v later, %d seeds each. Per 1 s interval where both flows are active (after the second flow's start): "+
		"Jain (ΣT)²/(NΣT²), PF Π_i N·S_i (the seed lost the equation: this product is the candidate matching its Jain/PF pairs, "+
		"see metrics.Fairness.PF), max–min min T/max T, averaged over the intervals as the seed quotes \"mean instantaneous\" "+
		"values; the flow ratio is the ratio of the mean rates T̄1/T̄2 (flow 1 the earlier), the α=0 utility their sum T̄1+T̄2. "+
		"The paper's two-flow run length and whether its staggered means include the first 30 s are not stated; ours cover "+
		"the overlap only.", dur, PairStagger, len(stats[0].Seeds))}
	s.Tables = append(s.Tables, fig15SummaryTable(stats), fig15SeedTable(stats))
	notes := fig15Notes(stats)
	for _, m := range pairModes {
		for _, p := range pairs {
			if p.Run.Kind != m.kind {
				continue
			}
			figs, err := pairFigures(p)
			if err != nil {
				return s, nil, err
			}
			s.Figures = append(s.Figures, figs...)
			break // the lowest seed's run: PairRuns lists seeds in order
		}
	}
	return s, notes, nil
}

func fig15SummaryTable(stats []Fig15Stats) report.Table {
	t := report.Table{Title: "Fig. 15 values: simulated spread over seeds against the paper", Name: "fig15-summary", Columns: []report.Column{
		{Key: "mode", Title: "arrival", Kind: report.Text}, {Key: "metric", Title: "metric", Kind: report.Text},
		{Key: "paper", Title: "paper", Kind: report.Float, Digits: 3},
		{Key: "sim_mean", Title: "sim mean", Kind: report.Float, Digits: 3},
		{Key: "sim_sd", Title: "sim s.d.", Kind: report.Float, Digits: 3},
		{Key: "sim_min", Title: "sim min", Kind: report.Float, Digits: 3},
		{Key: "sim_max", Title: "sim max", Kind: report.Float, Digits: 3},
		{Key: "seeds", Title: "seeds", Kind: report.Int},
	}}
	for _, st := range stats {
		for _, pm := range pairMetrics {
			mean, sd, lo, hi := spread(values(st, pm))
			t.Rows = append(t.Rows, []report.Cell{report.Str(modeName(st.Mode)), report.Str(pm.title), report.Num(pm.paper[st.Mode]),
				report.Num(mean), report.Num(sd), report.Num(lo), report.Num(hi), report.Count(int64(len(st.Runs)))})
		}
	}
	return t
}

func fig15SeedTable(stats []Fig15Stats) report.Table {
	t := report.Table{Title: "Fig. 15 values per seed", Name: "fig15-seeds", Columns: []report.Column{
		{Key: "mode", Title: "arrival", Kind: report.Text}, {Key: "seed", Title: "seed", Kind: report.Int},
		{Key: "points", Title: "intervals", Kind: report.Int}}}
	for _, pm := range pairMetrics {
		t.Columns = append(t.Columns, report.Column{Key: pm.key, Title: pm.title, Kind: report.Float, Digits: 3})
	}
	for _, st := range stats {
		for i, r := range st.Runs {
			row := []report.Cell{report.Str(modeName(st.Mode)), report.Count(int64(st.Seeds[i])), report.Count(int64(r.Points))}
			for _, pm := range pairMetrics {
				row = append(row, report.Num(pm.get(r)))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

func values(st Fig15Stats, pm pairMetric) []float64 {
	v := make([]float64, len(st.Runs))
	for i, r := range st.Runs {
		v[i] = pm.get(r)
	}
	return v
}

func modeName(kind string) string { return strings.TrimPrefix(kind, "pair-") }

// fig15Notes states, per mode, Jain and max–min against the paper with
// the spread, and whether the paper's value lies inside our seeds' range.
func fig15Notes(stats []Fig15Stats) []string {
	var out []string
	for _, st := range stats {
		var parts []string
		for _, pm := range pairMetrics {
			mean, sd, lo, hi := spread(values(st, pm))
			p := pm.paper[st.Mode]
			where := "inside our range"
			if p < lo {
				where = "below our range"
			} else if p > hi {
				where = "above our range"
			}
			parts = append(parts, fmt.Sprintf("%s %.3f ± %.3f [%.3f, %.3f] vs paper %.3f (%s)", pm.title, mean, sd, lo, hi, p, where))
		}
		out = append(out, fmt.Sprintf("Fig. 15, %s (%d seeds): %s.", modeName(st.Mode), len(st.Runs), strings.Join(parts, "; ")))
	}
	return out
}

// pairFigures are one run's phase plane, instantaneous indices and
// throughputs.
func pairFigures(p PairResult) ([]*report.Figure, error) {
	a, b := overlap(p.Res)
	pts, sum := metrics.PhasePlane(a, b)
	if len(pts) == 0 {
		return nil, fmt.Errorf("paper000: run %s: no interval with both flows active", p.Run.Name())
	}
	mode := modeName(p.Run.Kind)
	pp := report.PhasePlane{Name1: "flow 1", Name2: "flow 2"}
	idx := []report.Series{{Name: "Jain", Key: "jain"}, {Name: "PF", Key: "pf"}, {Name: "max–min", Key: "maxmin"},
		{Name: "flow ratio x1/x2", Key: "ratio"}}
	thr := []report.Series{{Name: "flow 1", Key: "flow1", Unit: "Mbit/s"}, {Name: "flow 2", Key: "flow2", Unit: "Mbit/s"},
		{Name: "α=0 utility x1 + x2", Key: "sum", Unit: "Mbit/s"}}
	for _, q := range pts {
		t := q.T.Seconds()
		pp.T, pp.X1, pp.X2 = append(pp.T, t), append(pp.X1, q.X1/1e6), append(pp.X2, q.X2/1e6)
		ratio := q.Ratio
		if math.IsInf(ratio, 0) {
			ratio = math.NaN() // flow 2 idle this second: a gap
		}
		for i, v := range []float64{q.Jain, q.PF, q.MinMax, ratio} {
			idx[i].T, idx[i].V = append(idx[i].T, t), append(idx[i].V, v)
		}
		for i, v := range []float64{q.X1, q.X2, q.Throughput} {
			thr[i].T, thr[i].V = append(thr[i].T, t), append(thr[i].V, v/1e6)
		}
	}
	seedNote := fmt.Sprintf("seed %d: mean Jain %.3f, PF %.3f, max–min %.3f, ratio %.3f, α=0 %.1f Mbit/s", p.Run.Seed,
		sum.Jain, sum.PF, sum.MinMax, sum.Ratio, sum.Alpha0/1e6)
	paper := fmt.Sprintf("the paper (%s): Jain %.3f, PF %.3f, max–min %.3f, ratio %.3f, α=0 %.2f Mbit/s", mode,
		pairMetrics[0].paper[p.Run.Kind], pairMetrics[1].paper[p.Run.Kind], pairMetrics[2].paper[p.Run.Kind],
		pairMetrics[3].paper[p.Run.Kind], pairMetrics[4].paper[p.Run.Kind])
	ph, err := report.PhasePlot("Fig. 15: phase plane, "+mode+" arrival", pp)
	if err != nil {
		return nil, err
	}
	ph.Name, ph.Caption = "fig15-phase-"+mode, "Instantaneous throughput pairs, "+seedNote+"; "+paper+"."
	fi, err := report.TimeSeries("Fig. 15: instantaneous indices, "+mode+" arrival", "index", idx, report.SeriesOptions{})
	if err != nil {
		return nil, err
	}
	fi.Name, fi.Caption = "fig15-indices-"+mode, "Per-second Jain, PF, max–min and flow ratio while both flows are active, "+seedNote+"."
	ft, err := report.TimeSeries("Fig. 15: throughput, "+mode+" arrival", "throughput", thr, report.SeriesOptions{})
	if err != nil {
		return nil, err
	}
	ft.Name, ft.Caption = "fig15-throughput-"+mode, "Per-second throughput of each flow and their sum (the α=0 utility), "+seedNote+"."
	return []*report.Figure{ph, fi, ft}, nil
}
