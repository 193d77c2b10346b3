package paper003

import (
	"fmt"
	"math"
	"strings"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/learn"
	"github.com/leolab/leolab/learn/closedloop"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
)

// fig9Says is what seed 003 reports of its Fig. 9 (§IV.C and §V): the
// figure has no numbers in the text we have, only this sentence.
const fig9Says = "Seed 003 (Fig. 9, §IV–V): on the held-out Tokyo data, throughput and retransmissions of the SLM's " +
	"predicted gains, computed with the surrogates (eqs. 22, 27), against the native Tokyo BBR flows and LLaMA 3.2; " +
	"\"the distilled SLMs retain throughput while reducing the retransmissions\". The text gives no number."

func panelShort(kind, dir string) string {
	k := "independent"
	if kind == campaign.Concurrent {
		k = "competing"
	}
	return dir + " " + k
}

// panelAbbrev is panelShort in few letters, for eight categories side by
// side (DL/UL downlink/uplink, ind./comp. independent/competing).
func panelAbbrev(kind, dir string) string {
	k := "ind."
	if kind == campaign.Concurrent {
		k = "comp."
	}
	return map[string]string{"downlink": "DL", "uplink": "UL"}[dir] + " " + k
}

// fig9Section draws Fig. 9 (a), the surrogate evaluation on Tokyo, and
// (b), the closed-loop runs, with a table each.
func fig9Section(f *Fig9) (report.Section, error) {
	s := report.Section{Title: "Fig. 9: the learned pacing gain on held-out Tokyo — (a) surrogate, (b) closed loop",
		Text: []string{fig9Says,
			"(a) is the paper's evaluation: no TCP in the loop; each 1 s interval of a Tokyo BBR flow gets the gain a " +
				"policy picks, and eq. 22 (throughput B_cap·min(g, 1)) and eq. 27 (retransmissions in the local envelope) " +
				"say what it would have delivered and retransmitted. Our Tokyo flows are the simulator's (the dataset has no " +
				"Tokyo run); the model is " + f.Model + ", trained on the five other cities and never on Tokyo; nothing is " +
				"retrained or tuned here. (b) runs the same model as the controller in the simulator (lmbbr), paired by seed " +
				"with stock BBRv3 and BBRv3 probing at a constant 1.05, on Tokyo and on Sydney (a calibration city)."}}
	if len(f.Surrogate) > 0 {
		figs, t, err := surrogateFigures(f)
		if err != nil {
			return s, err
		}
		s.Figures = append(s.Figures, figs...)
		s.Tables = append(s.Tables, t)
	}
	if len(f.Closed) > 0 {
		figs, t, err := closedFigures(f.Closed)
		if err != nil {
			return s, err
		}
		s.Figures = append(s.Figures, figs...)
		s.Tables = append(s.Tables, t)
	}
	return s, nil
}

func surrogateFigures(f *Fig9) ([]*report.Figure, report.Table, error) {
	t := report.Table{Title: "Fig. 9 (a): the model on held-out Tokyo, per stream kind and phase", Name: "fig9a-surrogate",
		Columns: []report.Column{
			{Key: "stream", Title: "stream", Kind: report.Text}, {Key: "phase", Title: "phase", Kind: report.Text},
			{Key: "flows", Title: "flows", Kind: report.Int}, {Key: "n", Title: "examples", Kind: report.Int},
			{Key: "accuracy", Title: "accuracy", Kind: report.Float, Digits: 3},
			{Key: "majority", Title: "majority baseline", Kind: report.Float, Digits: 3},
			{Key: "cross_entropy", Title: "cross-entropy", Unit: "nat", Kind: report.Float, Digits: 4},
			{Key: "label_entropy", Title: "label entropy", Unit: "nat", Kind: report.Float, Digits: 4},
			{Key: "mae", Title: "mean |gain error|", Kind: report.Float, Digits: 4},
			{Key: "confusion", Title: "confusion (label row → predicted)", Kind: report.Text},
		}}
	var accCats []string
	var acc, maj []float64
	var cats []string
	var thr, ret [5][]float64 // measured, stock, model, label, const105
	var notes []string
	for _, p := range f.Surrogate {
		name := panelShort(p.Kind, p.Direction)
		cats = append(cats, name)
		for i, o := range []Outcome{p.Measured, p.Stock, p.Model, p.Label, p.Const105} {
			thr[i], ret[i] = append(thr[i], o.Mbps), append(ret[i], o.Retrans)
		}
		var ph []string
		for k, e := range p.Evals {
			t.Rows = append(t.Rows, []report.Cell{report.Str(name), report.Str(e.Phase.String()), report.Count(int64(p.Flows)),
				report.Count(int64(e.N)), report.Num(e.Accuracy()), report.Num(e.Majority), report.Num(p.CE[k]),
				report.Num(p.LabelEntropy[k]), report.Num(e.MAE), report.Str(confusion(e.Confusion))})
			if e.N == 0 {
				continue
			}
			accCats = append(accCats, panelAbbrev(p.Kind, p.Direction)+" "+e.Phase.String())
			acc, maj = append(acc, e.Accuracy()), append(maj, e.Majority)
			ph = append(ph, fmt.Sprintf("%v accuracy %.3f vs majority %.3f, cross-entropy %.3f vs label entropy %.3f nat (n %d)",
				e.Phase, e.Accuracy(), e.Majority, p.CE[k], p.LabelEntropy[k], e.N))
		}
		notes = append(notes, fmt.Sprintf("%s: %s; surrogate %.1f Mbit/s and %.1f retransmissions/s with the model's gains, "+
			"%.1f and %.1f with stock BBRv3's, measured %.1f and %.1f", name, strings.Join(ph, ", "),
			p.Model.Mbps, p.Model.Retrans, p.Stock.Mbps, p.Stock.Retrans, p.Measured.Mbps, p.Measured.Retrans))
	}
	var figs []*report.Figure
	if len(accCats) > 0 { // else no UP or DOWN interval: the flows never probed
		a, err := report.CategoryBars("Fig. 9 (a): gain prediction on held-out Tokyo", "accuracy (share of intervals)", accCats,
			[]report.BarSeries{{Name: "model", Values: acc}, {Name: "majority baseline", Values: maj}}, nil)
		if err != nil {
			return nil, t, err
		}
		a.Name, a.Width = "fig9a-accuracy", 2*report.DefaultWidth/1.25 // eight labelled groups
		a.Caption = "Share of the held-out Tokyo UP and DOWN intervals whose eq. 3 label the model predicts, against always " +
			"answering the commonest label (DL/UL: downlink/uplink; ind./comp.: independent/competing). " +
			fig9Says + " Measured: " + joinSemi(notes) + ". A model no better than the " +
			"majority baseline has learnt nothing the label mix does not give."
		figs = append(figs, a)
	}
	names := []string{"measured (the trace)", "surrogate: stock BBRv3 gains", "surrogate: model's gains", "surrogate: eq. 3 labels",
		"surrogate: const105"}
	for _, m := range []struct {
		key, title, unit string
		v                [5][]float64
	}{{"throughput", "throughput", "Mbit/s", thr}, {"retransmits", "retransmissions", "segments per second", ret}} {
		var series []report.BarSeries
		for i, n := range names {
			series = append(series, report.BarSeries{Name: n, Values: m.v[i]})
		}
		fig, err := report.CategoryBars("Fig. 9 (a): surrogate "+m.title+" on Tokyo", m.title+" ("+m.unit+")", cats, series, nil)
		if err != nil {
			return nil, t, err
		}
		fig.Name, fig.Width = "fig9a-"+m.key, 2*report.DefaultWidth/1.5
		fig.Caption = fmt.Sprintf("Mean %s per 1 s interval of Tokyo's simulated BBR flows: measured, and the surrogate "+
			"(eq. %s) under stock BBRv3's gains (UP %.2f, DOWN %.2f), the model's, the eq. 3 labels' and const105's (UP %.2f). "+
			"%s Measured: %s. "+
			"Eq. 22 credits any gain ≥ 1 with the window's 95th-percentile rate, above the measured mean by construction, "+
			"so only the policies' surrogate bars compare with each other.", m.title,
			map[string]string{"throughput": "22", "retransmits": "27"}[m.key], stockUpGain, stockDownGain, closedloop.Const105Gain, fig9Says, surrogateNote(f.Surrogate, m.key))
		figs = append(figs, fig)
	}
	return figs, t, nil
}

// surrogateNote is the model's surrogate change against stock BBRv3 per
// stream.
func surrogateNote(ps []SurrogatePanel, key string) string {
	var out []string
	for _, p := range ps {
		m, s, c := p.Model.Mbps, p.Stock.Mbps, p.Const105.Mbps
		if key == "retransmits" {
			m, s, c = p.Model.Retrans, p.Stock.Retrans, p.Const105.Retrans
		}
		out = append(out, fmt.Sprintf("%s %.1f with the model's gains against %.1f with stock BBRv3's (%+.1f %%) and %.1f "+
			"with const105's (%+.1f %%)", panelShort(p.Kind, p.Direction), m, s, 100*(m/s-1), c, 100*(m/c-1)))
	}
	return joinSemi(out)
}

func confusion(c [][]int) string {
	rows := make([]string, len(c))
	for i, r := range c {
		rows[i] = strings.Trim(fmt.Sprint(r), "[]")
	}
	return strings.Join(rows, " | ")
}

// closedMetrics are the closed-loop quantities drawn.
var closedMetrics = []struct{ key, title, unit string }{
	{"throughput_mbps", "throughput", "Mbit/s"},
	{"retrans_per_gb", "retransmissions per GB", "segments/GB"},
	{"mean_rtt_ms", "mean RTT", "ms"},
}

func findStat(st []closedloop.Stat, arm, metric string) closedloop.Stat {
	for _, s := range st {
		if s.Arm == arm && s.Metric == metric {
			return s
		}
	}
	nan := metrics.Estimate{Mean: math.NaN(), CI: math.NaN()}
	return closedloop.Stat{Arm: arm, Metric: metric, Value: nan, Diff: nan, DiffPct: math.NaN()}
}

func closedLabel(p closedloop.Plan) string {
	c := cityLabel(p.City)
	if p.City == HeldOut {
		c = "Tokyo (held out)"
	}
	return c + " " + p.Direction
}

func closedFigures(cells []ClosedCell) ([]*report.Figure, report.Table, error) {
	t := report.Table{Title: "Fig. 9 (b): closed loop in the simulator, mean over seeds with 95 % CI, paired differences",
		Name: "fig9b-closedloop", Columns: []report.Column{
			{Key: "city", Title: "city", Kind: report.Text}, {Key: "direction", Title: "direction", Kind: report.Text},
			{Key: "arm", Title: "arm", Kind: report.Text}, {Key: "metric", Title: "metric", Kind: report.Text},
			{Key: "seeds", Title: "seeds", Kind: report.Int}, {Key: "duration_s", Title: "run", Unit: "s", Kind: report.Float, Digits: 0},
			{Key: "mean", Title: "mean", Kind: report.Float, Digits: 3}, {Key: "ci95", Title: "95 % CI ±", Kind: report.Float, Digits: 3},
			{Key: "diff_vs_bbr", Title: "Δ vs bbr", Kind: report.Float, Digits: 3}, {Key: "diff_vs_bbr_ci95", Title: "Δ vs bbr CI ±", Kind: report.Float, Digits: 3},
			{Key: "diff_vs_bbr_pct", Title: "Δ vs bbr", Unit: "%", Kind: report.Float, Digits: 1},
			{Key: "diff_vs_const105", Title: "Δ vs const105", Kind: report.Float, Digits: 3},
			{Key: "diff_vs_const105_ci95", Title: "Δ vs const105 CI ±", Kind: report.Float, Digits: 3},
			{Key: "diff_vs_const105_pct", Title: "Δ vs const105", Unit: "%", Kind: report.Float, Digits: 1},
		}}
	cats := make([]string, len(cells))
	for i, c := range cells {
		cats[i] = closedLabel(c.Plan)
		for _, arm := range ClosedArms {
			for _, m := range closedMetrics {
				b, k := findStat(c.VsBBR, arm, m.key), findStat(c.VsConst, arm, m.key)
				t.Rows = append(t.Rows, []report.Cell{report.Str(c.Plan.City), report.Str(c.Plan.Direction), report.Str(arm),
					report.Str(m.key), report.Count(int64(c.Plan.Seeds)), report.Num(c.Plan.Duration.Seconds()),
					report.Num(b.Value.Mean), report.Num(b.Value.CI), report.Num(b.Diff.Mean), report.Num(b.Diff.CI), report.Num(b.DiffPct),
					report.Num(k.Diff.Mean), report.Num(k.Diff.CI), report.Num(k.DiffPct)})
			}
		}
	}
	var figs []*report.Figure
	for _, m := range closedMetrics[:2] {
		var series []report.BarSeries
		for _, arm := range ClosedArms {
			v := make([]float64, len(cells))
			for i, c := range cells {
				v[i] = findStat(c.VsBBR, arm, m.key).Value.Mean
			}
			series = append(series, report.BarSeries{Name: armLabel(arm), Values: v})
		}
		fig, err := report.CategoryBars("Fig. 9 (b): closed-loop "+m.title, m.title+" ("+m.unit+")", cats, series, nil)
		if err != nil {
			return nil, t, err
		}
		// The 95 % CIs on the bars' centres (report.CategoryBars puts
		// series j of n in [i+0.1+0.8j/n, i+0.1+0.8(j+1)/n)).
		for j, arm := range ClosedArms {
			var x, y, e []float64
			for i, c := range cells {
				st := findStat(c.VsBBR, arm, m.key)
				x = append(x, float64(i)+0.1+0.8*(float64(j)+0.5)/float64(len(ClosedArms)))
				y, e = append(y, st.Value.Mean), append(e, st.Value.CI)
			}
			if err := report.ErrorBars(fig, "black", x, y, e, nil); err != nil {
				return nil, t, err
			}
		}
		fig.Name, fig.Width = "fig9b-"+strings.SplitN(m.key, "_", 2)[0], 2*report.DefaultWidth/1.5
		fig.Caption = fmt.Sprintf("Mean %s over %d seeds × %v per arm (error bars: 95 %% CI, Student's t), the shipped "+
			"linear model (lmbbr) in the loop of the simulator next to stock BBRv3 and BBRv3 with a constant UP gain of 1.05. "+
			"%s Measured: %s.", m.title, cells[0].Plan.Seeds, cells[0].Plan.Duration, fig9Says, closedNote(cells, m.key, m.unit))
		figs = append(figs, fig)
	}
	return figs, t, nil
}

func armLabel(arm string) string {
	return map[string]string{closedloop.ArmBBR: "bbr (stock BBRv3)", closedloop.ArmLinear: "linear (shipped model)",
		closedloop.ArmConst105: "const105 (UP gain 1.05)"}[arm]
}

// closedNote states, per cell, the linear model's paired differences
// from BBRv3 and from const105, and whether each CI excludes 0.
func closedNote(cells []ClosedCell, key, unit string) string {
	var out []string
	for _, c := range cells {
		l, b, k := findStat(c.VsBBR, closedloop.ArmLinear, key), findStat(c.VsBBR, closedloop.ArmBBR, key), findStat(c.VsConst, closedloop.ArmLinear, key)
		out = append(out, fmt.Sprintf("%s: linear %s ± %s %s against bbr %s ± %s (paired Δ %+.1f %%, %s) and against "+
			"const105 Δ %+.1f %% (%s)", closedLabel(c.Plan), g3(l.Value.Mean), g3(l.Value.CI), unit, g3(b.Value.Mean), g3(b.Value.CI),
			l.DiffPct, distinct(l), k.DiffPct, distinct(k)))
	}
	return joinSemi(out)
}

func distinct(s closedloop.Stat) string {
	if s.Distinct() {
		return "CI excludes 0"
	}
	return "CI holds 0"
}

// fig9Differences are the differences section's lines on Fig. 9.
func fig9Differences(f *Fig9) []string {
	if f == nil {
		return []string{"Fig. 9 was not run in this report (it needs the closed-loop runs of reproduce --paper 003)."}
	}
	out := []string{"Fig. 9 (a): the paper fine-tunes GPT-2, T5, GPT-Neo and SmolLM2 and compares with LLaMA 3.2 on real Tokyo " +
		"flows; we score " + f.Model + " on the simulator's Tokyo BBR flows (no real Tokyo " +
		"data exists here), without LLaMA. The paper gives no number to compare with."}
	var worse, equal, n int
	predicted := map[learn.Phase][]int{} // predictions per gain, over the panels
	for _, p := range f.Surrogate {
		for _, e := range p.Evals {
			if e.N == 0 {
				continue
			}
			n++
			col := predicted[e.Phase]
			if col == nil {
				col = make([]int, len(e.Confusion))
			}
			for _, row := range e.Confusion {
				for j, c := range row {
					col[j] += c
				}
			}
			predicted[e.Phase] = col
			switch {
			case e.Accuracy() < e.Majority-1e-12:
				worse++
			case math.Abs(e.Accuracy()-e.Majority) <= 1e-12:
				equal++
			}
		}
	}
	if n > 0 {
		var modes []string
		for _, ph := range []learn.Phase{learn.Up, learn.Down} {
			if col := predicted[ph]; len(col) > 0 {
				j, tot := 0, 0
				for k, c := range col {
					tot += c
					if c > col[j] {
						j = k
					}
				}
				modes = append(modes, fmt.Sprintf("%v %.2f in %.0f %% of its answers", ph, learn.Feasible(ph)[j], 100*float64(col[j])/float64(tot)))
			}
		}
		out = append(out, fmt.Sprintf("Fig. 9 (a), measured: of %d Tokyo phase sets the model equals the majority baseline on %d, "+
			"falls below it on %d and beats it on %d; its commonest answers: %s.", n, equal, worse, n-equal-worse, strings.Join(modes, ", ")))
	}
	for _, c := range f.Closed {
		l, k := findStat(c.VsBBR, closedloop.ArmLinear, "throughput_mbps"), findStat(c.VsConst, closedloop.ArmLinear, "throughput_mbps")
		lr, kr := findStat(c.VsBBR, closedloop.ArmLinear, "retrans_per_gb"), findStat(c.VsConst, closedloop.ArmLinear, "retrans_per_gb")
		out = append(out, fmt.Sprintf("Fig. 9 (b), %s, %d seeds: the linear model against stock BBRv3 %+.1f %% throughput (%s), "+
			"%+.1f %% retransmissions per GB (%s); against const105 %+.1f %% (%s) and %+.1f %% (%s).", closedLabel(c.Plan), c.Plan.Seeds,
			l.DiffPct, distinct(l), lr.DiffPct, distinct(lr), k.DiffPct, distinct(k), kr.DiffPct, distinct(kr)))
	}
	if len(f.Closed) > 0 {
		out = append(out, closedVerdictLine(f.Closed))
		out = append(out, "Fig. 9 (b): the paper has no closed-loop result; ours says whether what the surrogate credits "+
			"survives TCP in the loop. Where the linear model's difference from const105 has a CI holding 0, the model is no "+
			"better than always probing at 1.05: its gain over stock BBRv3 is the gentler probe, not the learning.")
	}
	return out
}
