package paper002

import (
	"fmt"

	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
	"github.com/leolab/leolab/result"
)

// The topology figures' campaigns (campaigns/fig7-*, fig9b-*, fig8-*).
//
// Parking lot (Figs. 7, 9b): hop1 20, hop2 40, hop3 60 Mbit/s; flow 0 crosses
// all three, flow i+1 only hop i+1. Progressive filling (Bertsekas &
// Gallager, Data Networks §6.5.2) gives the max–min allocation: hop1 is
// shared by flows 0 and 1 (10 each), hop2 leaves flow 2 40 − 10 = 30 and
// hop3 leaves flow 3 60 − 10 = 50.
var parkingLotMaxMin = []float64{10, 10, 30, 50}

// Path reconfiguration (Fig. 8): a 50 Mbit/s bottleneck; flows 2 and 3
// move from the 50 ms to the 20 ms path at 100 s and back at 200 s (the
// seed's times).
const (
	reconfRateMbps = 50.0
	reconfMove1    = 100.0
	reconfMove2    = 200.0
	reconfEnd      = 300.0
)

// reconfPhases are Fig. 8's three stretches (the first leaves slow start out).
var reconfPhases = []phase{
	{"0–100 s (two flows on each path)", settle, reconfMove1, reconfRateMbps},
	{"100–200 s (all four on the 20 ms path)", reconfMove1, reconfMove2, reconfRateMbps},
	{"200–300 s (two back on the 50 ms path)", reconfMove2, reconfEnd, reconfRateMbps},
}

func fig7(d *Data, p *Part) (report.Section, error) { return parkingLot(d, p, p.Figures[0], "fig7") }

func fig9b(d *Data, p *Part) (report.Section, error) { return parkingLot(d, p, p.Figures[0], "fig9b") }

// shareJain is Jain's index of the flows' goodputs each over its max–min
// share (Jain, Chiu & Hawe 1984, §3: x_i = T_i/O_i with O_i the fair
// throughput): 1 exactly at the max–min allocation, which the raw index
// of unequal shares is not (0.694 here).
func shareJain(r *result.Result, fair []float64) float64 {
	x := goodputs(r)
	for i := range x {
		x[i] /= fair[i]
	}
	return metrics.Jain(x)
}

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

func parkingLot(d *Data, p *Part, f *Figure, name string) (report.Section, error) {
	s := report.Section{Title: f.Title, Text: []string{"Paper: " + f.Paper}}
	cells := d.cells(p)
	fairSum := sum(parkingLotMaxMin)
	agg := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return metrics.NormalisedGoodput(goodputs(r), fairSum) })
	}
	jmm := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return shareJain(r, parkingLotMaxMin) })
	}
	jain := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return metrics.Jain(goodputs(r)) })
	}
	flow := func(i int) func(c *cell) metrics.Estimate {
		return func(c *cell) metrics.Estimate {
			return c.each(func(r *result.Result) float64 { return r.Flows[i].ThroughputMbps })
		}
	}
	for _, c := range cells {
		d.Findings[name+".agg."+c.CCA], d.Findings[name+".jainmm."+c.CCA], d.Findings[name+".jain."+c.CCA] = agg(c), jmm(c), jain(c)
		d.Findings[name+".long."+c.CCA] = flow(0)(c)
	}
	s.Tables = append(s.Tables, estimateTable(f.Title, name+"-parking-lot", cells, nil, []col{
		{"long_mbps", "long flow (max–min 10)", "Mbit/s", 2, flow(0)},
		{"cross1_mbps", "cross1 on hop1 (10)", "Mbit/s", 2, flow(1)},
		{"cross2_mbps", "cross2 on hop2 (30)", "Mbit/s", 2, flow(2)},
		{"cross3_mbps", "cross3 on hop3 (50)", "Mbit/s", 2, flow(3)},
		{"normalised_goodput", "aggregate / max–min aggregate (100)", "", 3, agg},
		{"jain_maxmin", "Jain's index of goodput / max–min share", "", 3, jmm},
		{"jain", "Jain's index of goodputs", "", 3, jain},
	}))
	if len(cells) == 0 {
		return s, nil
	}
	var xy []report.XYSeries
	for _, c := range cells {
		a, j := agg(c), jmm(c)
		xy = append(xy, report.XYSeries{Name: schemeName(c.CCA), Key: c.CCA, X: []float64{j.Mean}, Y: []float64{a.Mean}, Points: true})
	}
	fig, err := report.XY(f.Title+": normalised aggregate goodput against Jain's index", "Jain's index of goodput / max–min share", "aggregate goodput / 100 Mbit/s", xy, report.SeriesOptions{})
	if err != nil {
		return s, err
	}
	for _, c := range cells {
		a, j := agg(c), jmm(c)
		if err := report.ErrorBars(fig, c.CCA, []float64{j.Mean}, []float64{a.Mean}, []float64{a.CI}, []float64{j.CI}); err != nil {
			return s, err
		}
	}
	fig.Name = name + "-agg-jain"
	fig.Caption = "One point per scheme: four flows of it on the parking lot hop1 20 → hop2 40 → hop3 60 Mbit/s (20 ms each), a long flow over all three and a cross flow per hop. " +
		"Jain's index is over each flow's goodput divided by its max–min share (10, 10, 30, 50 Mbit/s), so 1 is the max–min allocation. " + ciNote(runsPer(p))
	s.Figures = append(s.Figures, fig)
	cats := []string{"long (hop1–3)", "cross1 (hop1)", "cross2 (hop2)", "cross3 (hop3)"}
	bars := []report.BarSeries{{Name: "max–min share", Values: parkingLotMaxMin}}
	for _, c := range cells {
		b := report.BarSeries{Name: schemeName(c.CCA)}
		for i := range cats {
			b.Values = append(b.Values, flow(i)(c).Mean)
		}
		bars = append(bars, b)
	}
	bf, err := report.CategoryBars(f.Title+": goodput per flow", "goodput (Mbit/s)", cats, bars, nil)
	if err != nil {
		return s, err
	}
	bf.Name = name + "-flows"
	bf.Caption = "Mean goodput of each flow over the runs (intervals in the table), beside its max–min share."
	s.Figures = append(s.Figures, bf)
	s.Text = append(s.Text, "Here: "+joinEstimates(cells, func(c *cell) string {
		return fmt.Sprintf("%s long flow %s Mbit/s (max–min 10), Jain over shares %s, aggregate %s", schemeName(c.CCA), pm(flow(0)(c), 2), pm(jmm(c), 3), pm(agg(c), 3))
	})+".", ciNote(runsPer(p)))
	return s, nil
}

func fig8(d *Data, p *Part) (report.Section, error) {
	f := p.Figures[0]
	s := report.Section{Title: f.Title, Text: []string{"Paper: " + f.Paper}}
	cells := d.cells(p)
	rates := func(r *result.Result, ph phase) []float64 {
		out := make([]float64, len(r.Flows))
		for i, fl := range r.Flows {
			out[i] = rateIn(fl, ph.from, ph.to)
		}
		return out
	}
	agg := func(ph phase) func(*cell) metrics.Estimate {
		return func(c *cell) metrics.Estimate {
			return c.each(func(r *result.Result) float64 { return metrics.NormalisedGoodput(rates(r, ph), ph.capMbps) })
		}
	}
	jain := func(ph phase) func(*cell) metrics.Estimate {
		return func(c *cell) metrics.Estimate {
			return c.each(func(r *result.Result) float64 { return metrics.Jain(rates(r, ph)) })
		}
	}
	// moved is the moved pair's goodput over the pair that stays (flows 2,
	// 3 over 0, 1): below 1 on the longer path under RTT unfairness.
	moved := func(ph phase) func(*cell) metrics.Estimate {
		return func(c *cell) metrics.Estimate {
			return c.each(func(r *result.Result) float64 {
				x := rates(r, ph)
				return (x[2] + x[3]) / (x[0] + x[1])
			})
		}
	}
	var cols []col
	for i, ph := range reconfPhases {
		cols = append(cols,
			col{fmt.Sprintf("agg_phase%d", i+1), "aggregate / 50 Mbit/s, " + ph.name, "", 3, agg(ph)},
			col{fmt.Sprintf("jain_phase%d", i+1), "Jain, " + ph.name, "", 3, jain(ph)},
			col{fmt.Sprintf("moved_phase%d", i+1), "moved pair / staying pair, " + ph.name, "", 2, moved(ph)})
	}
	for _, c := range cells {
		for i, ph := range reconfPhases {
			d.Findings[fmt.Sprintf("fig8.jain.%s.%d", c.CCA, i+1)] = jain(ph)(c)
			d.Findings[fmt.Sprintf("fig8.agg.%s.%d", c.CCA, i+1)] = agg(ph)(c)
			d.Findings[fmt.Sprintf("fig8.moved.%s.%d", c.CCA, i+1)] = moved(ph)(c)
		}
	}
	s.Tables = append(s.Tables, estimateTable("Per phase of the path reconfiguration", "fig8-phases", cells, nil, cols))
	if len(cells) == 0 {
		return s, nil
	}
	var xy []report.XYSeries
	for _, c := range cells {
		sr := report.XYSeries{Name: schemeName(c.CCA), Key: c.CCA, Points: true}
		for _, ph := range reconfPhases {
			sr.X, sr.Y = append(sr.X, jain(ph)(c).Mean), append(sr.Y, agg(ph)(c).Mean)
		}
		xy = append(xy, sr)
	}
	fig, err := report.XY("Fig. 8: normalised aggregate goodput against Jain's index, per phase", "Jain's index of the four flows", "aggregate goodput / 50 Mbit/s", xy, report.SeriesOptions{})
	if err != nil {
		return s, err
	}
	for _, c := range cells {
		var x, y, xe, ye []float64
		for _, ph := range reconfPhases {
			j, a := jain(ph)(c), agg(ph)(c)
			x, y, xe, ye = append(x, j.Mean), append(y, a.Mean), append(xe, j.CI), append(ye, a.CI)
		}
		if err := report.ErrorBars(fig, c.CCA, x, y, ye, xe); err != nil {
			return s, err
		}
	}
	fig.Name = "fig8-agg-jain"
	fig.Caption = "Each scheme's line joins its three phases: two flows on each path (20 and 50 ms base RTT), all four on the 20 ms path (100–200 s), two moved back (200–300 s); 50 Mbit/s shared bottleneck. " + ciNote(runsPer(p))
	s.Figures = append(s.Figures, fig)
	var gs []report.Series
	for i, fl := range cells[0].Runs[0].Flows {
		t, v := perInterval(fl)
		where := "20 ms path"
		if i >= 2 {
			where = "moved 50 → 20 → 50 ms"
		}
		gs = append(gs, report.Series{Name: fmt.Sprintf("flow %d (%s)", i, where), Unit: "Mbit/s", T: t, V: v})
	}
	tf, err := report.TimeSeries(fmt.Sprintf("Fig. 8: goodput of the four %s flows (first run)", schemeName(cells[0].CCA)), "goodput", gs, report.SeriesOptions{})
	if err != nil {
		return s, err
	}
	tf.Name = "fig8-goodput"
	tf.Caption = "Per-interval goodput of the first run (seed 1); the moves are at 100 s and 200 s."
	s.Figures = append(s.Figures, tf)
	s.Text = append(s.Text, "Jain's index before, during and after the move: "+joinEstimates(cells, func(c *cell) string {
		return fmt.Sprintf("%s %s → %s → %s (moved pair / staying pair %s → %s → %s)", schemeName(c.CCA),
			pm(jain(reconfPhases[0])(c), 3), pm(jain(reconfPhases[1])(c), 3), pm(jain(reconfPhases[2])(c), 3),
			pm(moved(reconfPhases[0])(c), 2), pm(moved(reconfPhases[1])(c), 2), pm(moved(reconfPhases[2])(c), 2))
	})+".", ciNote(runsPer(p)))
	return s, nil
}
