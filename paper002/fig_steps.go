package paper002

import (
	"fmt"

	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
	"github.com/leolab/leolab/result"
)

// The step micro-benchmarks' timing and capacities (fig3/fig4 campaign
// files): steps at 40 s and 80 s; 100 Mbit/s, 20 Mbit/s during the
// bandwidth dip.
const (
	stepAt1, stepAt2 = 40.0, 80.0
	stepRateMbps     = 100.0
	dipRateMbps      = 20.0
	// settle leaves the first seconds (slow start) out of the first phase.
	settle = 5.0
	// recoveredFrac is what "recovered" means after a step: goodput back
	// to 80 % of the capacity in one interval.
	recoveredFrac = 0.8
	stepBaseRTTMs = 50.0
)

// phase is one constant stretch of a step benchmark.
type phase struct {
	name     string
	from, to float64
	capMbps  float64
}

func fig3(d *Data, p *Part) (report.Section, error) {
	phases := []phase{{"0–40 s (100 Mbit/s)", settle, stepAt1, stepRateMbps}, {"40–80 s (20 Mbit/s)", stepAt1, stepAt2, dipRateMbps},
		{"80–120 s (100 Mbit/s)", stepAt2, 120, stepRateMbps}}
	s, cells, err := stepSection(d, p, phases, "fig3")
	if err != nil {
		return s, err
	}
	rec := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return recovery(r.Flows[0], stepAt2, recoveredFrac, stepRateMbps) })
	}
	for _, c := range cells {
		d.Findings["fig3.recovery."+c.CCA] = rec(c)
		d.Findings["fig3.util."+c.CCA] = c.each(func(r *result.Result) float64 { return meanUtil(r.Flows[0], phases) })
	}
	s.Tables = append(s.Tables, estimateTable("Recovery after the bandwidth returns (80 s)", "fig3-recovery", cells, nil, []col{
		{"recovery_s", "time to 80 % of 100 Mbit/s", "s", 1, rec},
	}))
	// The CDF of per-interval goodput over every run of each scheme.
	var xy []report.XYSeries
	for _, c := range cells {
		var all []float64
		for _, r := range c.Runs {
			_, v := perInterval(r.Flows[0])
			all = append(all, v...)
		}
		pts := metrics.CDF(all)
		x, y := make([]float64, len(pts)), make([]float64, len(pts))
		for i, pt := range pts {
			x[i], y[i] = pt.X, pt.P
		}
		if len(x) > 0 {
			xy = append(xy, report.XYSeries{Name: schemeName(c.CCA), Key: c.CCA, X: x, Y: y})
		}
	}
	if len(xy) > 0 {
		fig, err := report.XY("Fig. 3: CDF of per-second goodput under bandwidth steps", "goodput (Mbit/s)", "share of seconds ≤ x", xy, report.SeriesOptions{})
		if err != nil {
			return s, err
		}
		fig.Name = "fig3-cdf"
		fig.Caption = "Per-interval goodput of every run, pooled per scheme (the paper's Fig. 3 CDF). The capacity is 100 Mbit/s for 80 s and 20 Mbit/s for 40 s of each run."
		s.Figures = append([]*report.Figure{fig}, s.Figures...)
	}
	s.Text = append(s.Text, "Recovery: "+joinEstimates(cells, func(c *cell) string {
		return fmt.Sprintf("%s %s s", schemeName(c.CCA), pm(rec(c), 1))
	})+".", ciNote(runsPer(p)))
	return s, nil
}

func fig4(d *Data, p *Part) (report.Section, error) {
	phases := []phase{{"0–40 s (50 ms)", settle, stepAt1, stepRateMbps}, {"40–80 s (200 ms)", stepAt1, stepAt2, stepRateMbps},
		{"80–120 s (back to 50 ms)", stepAt2, 120, stepRateMbps}}
	s, cells, err := stepSection(d, p, phases, "fig4")
	if err != nil {
		return s, err
	}
	rec := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 { return recovery(r.Flows[0], stepAt1, recoveredFrac, stepRateMbps) })
	}
	infl := func(c *cell) metrics.Estimate {
		return c.each(func(r *result.Result) float64 {
			return metrics.DelayInflation(meanSRTT(r.Flows[0], stepAt2+2, stepAt2+12), stepBaseRTTMs)
		})
	}
	for _, c := range cells {
		d.Findings["fig4.recovery."+c.CCA] = rec(c)
		d.Findings["fig4.util200."+c.CCA] = c.each(func(r *result.Result) float64 {
			return rateIn(r.Flows[0], stepAt1, stepAt2) / stepRateMbps
		})
	}
	s.Tables = append(s.Tables, estimateTable("Reaction to the RTT steps", "fig4-reaction", cells, nil, []col{
		{"recovery_s", "time to 80 % after 50 → 200 ms", "s", 1, rec},
		{"inflation_after_drop", "sRTT / 50 ms, 82–92 s", "", 2, infl},
	}))
	s.Text = append(s.Text, "After the RTT grows at 40 s, time back to 80 % of the link: "+joinEstimates(cells, func(c *cell) string {
		return fmt.Sprintf("%s %s s", schemeName(c.CCA), pm(rec(c), 1))
	})+"; after it falls back (82–92 s), sRTT over the 50 ms base: "+joinEstimates(cells, func(c *cell) string {
		return fmt.Sprintf("%s %s", schemeName(c.CCA), pm(infl(c), 2))
	})+".", ciNote(runsPer(p)))
	return s, nil
}

// stepSection is the part both step benchmarks share: utilisation per
// phase and the goodput of each scheme's first run over time.
func stepSection(d *Data, p *Part, phases []phase, name string) (report.Section, []*cell, error) {
	f := p.Figures[0]
	s := report.Section{Title: f.Title, Text: []string{"Paper: " + f.Paper}}
	cells := d.cells(p)
	var cols []col
	for i, ph := range phases {
		ph := ph
		cols = append(cols, col{fmt.Sprintf("util_phase%d", i+1), "goodput / capacity, " + ph.name, "", 3, func(c *cell) metrics.Estimate {
			return c.each(func(r *result.Result) float64 { return rateIn(r.Flows[0], ph.from, ph.to) / ph.capMbps })
		}})
	}
	s.Tables = append(s.Tables, estimateTable("Utilisation per phase", name+"-phases", cells, nil, cols))
	var gs []report.Series
	for _, c := range cells {
		t, v := perInterval(c.Runs[0].Flows[0])
		gs = append(gs, report.Series{Name: schemeName(c.CCA), Key: c.CCA, Unit: "Mbit/s", T: t, V: v})
	}
	if err := addTimeFigures(&s, name, gs, nil); err != nil {
		return s, nil, err
	}
	return s, cells, nil
}

// meanUtil is a flow's mean utilisation over the phases.
func meanUtil(f result.Flow, phases []phase) float64 {
	var sum float64
	for _, ph := range phases {
		sum += rateIn(f, ph.from, ph.to) / ph.capMbps
	}
	return sum / float64(len(phases))
}
