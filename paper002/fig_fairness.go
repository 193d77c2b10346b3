package paper002

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
	"github.com/leolab/leolab/result"
)

// The RTT-asymmetry campaigns' sweep keys and base RTTs.
const (
	keyExtraRTT   = "flows[1].extra_rtt"
	keyDiscipline = "path.queue.discipline"
	fig5BaseMs    = 50.0
	fig6BaseMs    = 20.0
)

func fig5(d *Data, p *Part) (report.Section, error) {
	return asymmetry(d, p, p.Figures[0], "droptail", fig5BaseMs, "fig5")
}

func fig9a(d *Data, p *Part) (report.Section, error) {
	for _, f := range p.Figures {
		if f.ID == "fig9a" {
			return asymmetry(d, p, f, "sfq", fig5BaseMs, "fig9a")
		}
	}
	return report.Section{}, fmt.Errorf("paper002: fig9a not in %s", p.File)
}

func fig6(d *Data, p *Part) (report.Section, error) {
	return asymmetry(d, p, p.Figures[0], "", fig6BaseMs, "fig6")
}

// asymmetry is the goodput ratio of the two flows against the second
// flow's RTT, per scheme, for one queue discipline ("" for a campaign that
// does not sweep it).
func asymmetry(d *Data, p *Part, f *Figure, disc string, baseMs float64, name string) (report.Section, error) {
	s := report.Section{Title: f.Title, Text: []string{"Paper: " + f.Paper}}
	var cells []*cell
	for _, c := range d.cells(p) {
		if disc == "" || c.value(keyDiscipline) == disc {
			cells = append(cells, c)
		}
	}
	ratio := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 {
			return metrics.GoodputRatio(r.Flows[0].ThroughputMbps, r.Flows[1].ThroughputMbps)
		})
	}
	long := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 {
			return metrics.LongOverShort(r.Flows[1].ThroughputMbps, r.Flows[0].ThroughputMbps)
		})
	}
	agg := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return metrics.NormalisedGoodput(goodputs(r), stepRateMbps) })
	}
	keys := []string{keyExtraRTT}
	if disc != "" {
		keys = append(keys, keyDiscipline)
	}
	s.Tables = append(s.Tables, estimateTable(f.Title, name, cells, keys, []col{
		{"goodput_ratio", "goodput ratio min/max", "", 3, ratio},
		{"long_over_short", "long-RTT / short-RTT goodput", "", 3, long},
		{"normalised_goodput", "aggregate / 100 Mbit/s", "", 3, agg},
	}))
	// One series per scheme: ratio against the second flow's RTT.
	type pts struct{ x, y, e []float64 }
	series := map[string]*pts{}
	var order []string
	for _, c := range cells {
		x := baseMs + msOf(c.value(keyExtraRTT))
		e := ratio(c)
		if series[c.CCA] == nil {
			series[c.CCA] = &pts{}
			order = append(order, c.CCA)
		}
		sp := series[c.CCA]
		sp.x, sp.y, sp.e = append(sp.x, x), append(sp.y, e.Mean), append(sp.e, e.CI)
		d.Findings[fmt.Sprintf("%s.ratio.%s.%g", name, c.CCA, x)] = e
	}
	var xy []report.XYSeries
	for _, k := range order {
		xy = append(xy, report.XYSeries{Name: schemeName(k), Key: k, X: series[k].x, Y: series[k].y})
	}
	if len(xy) == 0 {
		return s, nil
	}
	fig, err := report.XY(f.Title, "RTT of the second flow (ms)", "goodput ratio (min/max)", xy, report.SeriesOptions{
		Refs: []report.RefLine{{Y: 1, Label: "equal shares"}}})
	if err != nil {
		return s, err
	}
	for _, k := range order {
		if err := report.ErrorBars(fig, k, series[k].x, series[k].y, series[k].e, nil); err != nil {
			return s, err
		}
	}
	fig.Name = name + "-ratio"
	fig.Caption = fmt.Sprintf("Goodput ratio (min/max) of two flows of one scheme; the first at %.0f ms RTT. %s Orca, Astraea and Sage run on the LeoEM-path, step and random-loss figures only.",
		baseMs, ciNote(runsPer(p)))
	s.Figures = append(s.Figures, fig)
	s.Text = append(s.Text, "Here, at the largest asymmetry: "+joinEstimates(lastPerCCA(cells), func(c *cell) string {
		return fmt.Sprintf("%s ratio %s (the long-RTT flow gets %s of the short one's goodput)", schemeName(c.CCA), pm(ratio(c), 2), pm(long(c), 2))
	})+".")
	return s, nil
}

// lastPerCCA is each scheme's last cell (its largest sweep value).
func lastPerCCA(cells []*cell) []*cell {
	var out []*cell
	for i, c := range cells {
		if i+1 == len(cells) || cells[i+1].CCA != c.CCA {
			out = append(out, c)
		}
	}
	return out
}

// msOf reads a swept duration such as 50ms, in ms (NaN if it is not one).
func msOf(s string) float64 {
	d, err := time.ParseDuration(s)
	if err != nil {
		return math.NaN()
	}
	return float64(d) / float64(time.Millisecond)
}
