package paper002

import (
	"fmt"
	"math"
	"strconv"

	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
	"github.com/leolab/leolab/result"
)

// aqmBaseRTTMs is Fig. 9c's campaign's base RTT.
const aqmBaseRTTMs = 50.0

func fig9c(d *Data, p *Part) (report.Section, error) {
	f := p.Figures[0]
	s := report.Section{Title: f.Title, Text: []string{"Paper: " + f.Paper}}
	cells := d.cells(p)
	agg := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return metrics.NormalisedGoodput(goodputs(r), stepRateMbps) })
	}
	infl := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 {
			var sum float64
			for _, fl := range r.Flows {
				sum += metrics.DelayInflation(meanSRTT(fl, 0, 0), aqmBaseRTTMs)
			}
			return sum / float64(len(r.Flows))
		})
	}
	jain := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return metrics.Jain(goodputs(r)) })
	}
	for _, c := range cells {
		k := c.CCA + "." + c.value(keyDiscipline)
		d.Findings["fig9c.agg."+k], d.Findings["fig9c.infl."+k], d.Findings["fig9c.jain."+k] = agg(c), infl(c), jain(c)
	}
	s.Tables = append(s.Tables, estimateTable("Five flows of one scheme under each queue discipline", "fig9c-aqm", cells, []string{keyDiscipline}, []col{
		{"normalised_goodput", "aggregate / 100 Mbit/s", "", 3, agg},
		{"delay_inflation", "mean sRTT / 50 ms", "", 2, infl},
		{"jain", "Jain's index", "", 3, jain},
	}))
	type pts struct{ x, y, xe, ye []float64 }
	series := map[string]*pts{}
	var order []string
	for _, c := range cells {
		a, i := agg(c), infl(c)
		if series[c.CCA] == nil {
			series[c.CCA] = &pts{}
			order = append(order, c.CCA)
		}
		sp := series[c.CCA]
		sp.x, sp.y, sp.xe, sp.ye = append(sp.x, i.Mean), append(sp.y, a.Mean), append(sp.xe, i.CI), append(sp.ye, a.CI)
	}
	var xy []report.XYSeries
	for _, k := range order {
		xy = append(xy, report.XYSeries{Name: schemeName(k), Key: k, X: series[k].x, Y: series[k].y, Points: true})
	}
	if len(xy) > 0 {
		fig, err := report.XY("Fig. 9(c): normalised goodput against delay inflation, one point per AQM", "delay inflation (mean sRTT / base RTT)", "aggregate goodput / capacity", xy, report.SeriesOptions{})
		if err != nil {
			return s, err
		}
		for _, k := range order {
			if err := report.ErrorBars(fig, k, series[k].x, series[k].y, series[k].ye, series[k].xe); err != nil {
				return s, err
			}
		}
		fig.Name = "fig9c-aqm"
		fig.Caption = "Each point is one queue discipline (the table names them); " + ciNote(runsPer(p))
		s.Figures = append(s.Figures, fig)
		// Jain per discipline as bars.
		var discs []string
		for _, c := range cells {
			if c.CCA == order[0] {
				discs = append(discs, c.value(keyDiscipline))
			}
		}
		var bars []report.BarSeries
		for _, k := range order {
			b := report.BarSeries{Name: schemeName(k)}
			for _, dsc := range discs {
				b.Values = append(b.Values, d.Findings["fig9c.jain."+k+"."+dsc].Mean)
			}
			bars = append(bars, b)
		}
		jf, err := report.CategoryBars("Fig. 9(c): Jain's index of the five flows per AQM", "Jain's index", discs, bars, []report.RefLine{{Y: 1, Label: "equal shares"}})
		if err != nil {
			return s, err
		}
		jf.Name = "fig9c-jain"
		jf.Caption = "Mean Jain's index over the runs (intervals in the table)."
		s.Figures = append(s.Figures, jf)
	}
	return s, nil
}

func figLoss(d *Data, p *Part) (report.Section, error) {
	f := p.Figures[0]
	s := report.Section{Title: f.Title, Text: []string{"Paper: " + f.Paper}}
	cells := d.cells(p)
	good := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return r.Flows[0].ThroughputMbps })
	}
	s.Tables = append(s.Tables, estimateTable("One flow under i.i.d. random loss", "loss", cells, []string{"path.loss"}, []col{
		{"goodput_mbps", "goodput", "Mbit/s", 1, good},
	}))
	type pts struct{ x, y, e []float64 }
	series := map[string]*pts{}
	var order []string
	for _, c := range cells {
		x, err := strconv.ParseFloat(c.value("path.loss"), 64)
		if err != nil {
			x = math.NaN()
		}
		e := good(c)
		d.Findings[fmt.Sprintf("loss.goodput.%s.%g", c.CCA, x)] = e
		if series[c.CCA] == nil {
			series[c.CCA] = &pts{}
			order = append(order, c.CCA)
		}
		sp := series[c.CCA]
		sp.x, sp.y, sp.e = append(sp.x, 100*x), append(sp.y, e.Mean), append(sp.e, e.CI)
	}
	var xy []report.XYSeries
	for _, k := range order {
		xy = append(xy, report.XYSeries{Name: schemeName(k), Key: k, X: series[k].x, Y: series[k].y})
	}
	if len(xy) > 0 {
		fig, err := report.XY("Goodput under random loss (100 Mbit/s, 50 ms)", "random loss (%)", "goodput (Mbit/s)", xy, report.SeriesOptions{})
		if err != nil {
			return s, err
		}
		for _, k := range order {
			if err := report.ErrorBars(fig, k, series[k].x, series[k].y, series[k].e, nil); err != nil {
				return s, err
			}
		}
		fig.Name = "loss-goodput"
		fig.Caption = ciNote(runsPer(p))
		s.Figures = append(s.Figures, fig)
	}
	return s, nil
}
