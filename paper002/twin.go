package paper002

import (
	"fmt"
	"math"
	"strings"

	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
	"github.com/leolab/leolab/result"
)

// SimTwins are the live parts' runs on the simulator: the same scenario
// texts (seeds, start jitter, sizes), engine sim, so that the report sets
// each live figure beside the model's own numbers — DESIGN.md's
// validation ladder, rung 1: the kernel's CUBIC and BBR against leolab's
// cubic and bbr1 through the same link models. They are stored beside the
// live runs (a run's id covers its engine).
func SimTwins(parts []*Part) ([]*Part, error) {
	var out []*Part
	for _, p := range parts {
		if p.Campaign.Engine != EngineEmu {
			continue
		}
		c := *p.Campaign
		c.Engine = EngineSim
		c.Name = strings.TrimSuffix(c.Name, "-emu") + "-sim-twin"
		rs, err := c.Expand()
		if err != nil {
			return nil, fmt.Errorf("paper002: %s: sim twin: %w", p.File, err)
		}
		out = append(out, &Part{File: p.File, Figures: p.Figures, Campaign: &c, Runs: rs})
	}
	return out, nil
}

// twinMetric is one quantity the live-against-sim table compares.
type twinMetric struct {
	key, title, unit string
	digits           int
	get              func(*result.Result) float64
}

var twinMetrics = []twinMetric{
	{"goodput", "aggregate goodput", "Mbit/s", 1, func(r *result.Result) float64 { return sum(goodputs(r)) }},
	{"srtt", "mean sRTT", "ms", 1, func(r *result.Result) float64 {
		var s float64
		for _, f := range r.Flows {
			s += meanSRTT(f, 0, 0)
		}
		return s / float64(len(r.Flows))
	}},
	{"jain", "Jain's index", "", 3, func(r *result.Result) float64 { return metrics.Jain(goodputs(r)) }},
}

// twinRow is one live cell and its simulated twin, per twinMetrics.
type twinRow struct {
	figure, cca, point string
	emu, sim           []metrics.Estimate
}

// twinRows pairs each live cell with its twin's cell (d.Twin).
func (d *Data) twinRows(parts []*Part) []twinRow {
	if d.Twin == nil {
		return nil
	}
	twins := map[string]*Part{}
	for _, tp := range d.TwinParts {
		twins[tp.File] = tp
	}
	var out []twinRow
	for _, p := range parts {
		tp := twins[p.File]
		if tp == nil || p.Campaign.Engine != EngineEmu {
			continue
		}
		sims := map[string]*cell{}
		for _, c := range d.Twin.cells(tp) {
			sims[fmt.Sprint(c.CCA, c.Point)] = c
		}
		for _, c := range d.cells(p) {
			sc := sims[fmt.Sprint(c.CCA, c.Point)]
			if sc == nil {
				continue
			}
			var point []string
			for _, s := range c.Point {
				point = append(point, s.Key+"="+s.Value)
			}
			row := twinRow{figure: p.Figures[0].ID, cca: c.CCA, point: strings.Join(point, " ")}
			for _, m := range twinMetrics {
				row.emu, row.sim = append(row.emu, c.each(m.get)), append(row.sim, sc.each(m.get))
			}
			out = append(out, row)
		}
	}
	return out
}

// twinTable sets each live cell's aggregate goodput, mean sRTT and Jain's
// index beside its simulated twin's: means ± 95 % CI over the runs, and
// the live/sim ratio of the means. No tolerance: the kernel's algorithms
// are not ours line by line (HyStart, pacing, TSO, delayed ACKs), so this
// is a comparison, not a check.
func (d *Data) twinTable(parts []*Part) (report.Table, bool) {
	t := report.Table{Title: "Live against the simulator (the same scenarios, seeds and sizes)", Name: "live-vs-sim", Columns: []report.Column{
		{Key: "figure", Title: "figure", Kind: report.Text},
		{Key: "cca", Title: "scheme", Kind: report.Text},
		{Key: "point", Title: "point", Kind: report.Text},
	}}
	for _, m := range twinMetrics {
		t.Columns = append(t.Columns,
			report.Column{Key: "emu_" + m.key, Title: "emu " + m.title, Unit: m.unit, Kind: report.Float, Digits: m.digits},
			report.Column{Key: "emu_" + m.key + "_ci95", Title: "±", Unit: m.unit, Kind: report.Float, Digits: m.digits},
			report.Column{Key: "sim_" + m.key, Title: "sim " + m.title, Unit: m.unit, Kind: report.Float, Digits: m.digits},
			report.Column{Key: "sim_" + m.key + "_ci95", Title: "±", Unit: m.unit, Kind: report.Float, Digits: m.digits},
			report.Column{Key: m.key + "_ratio", Title: m.title + " emu/sim", Kind: report.Float, Digits: 3})
	}
	rows := d.twinRows(parts)
	for _, r := range rows {
		row := []report.Cell{report.Str(r.figure), report.Str(schemeName(r.cca)), report.Str(r.point)}
		for i := range twinMetrics {
			e, s := r.emu[i], r.sim[i]
			row = append(row, report.Num(e.Mean), report.Num(e.CI), report.Num(s.Mean), report.Num(s.CI), report.Num(ratio(e.Mean, s.Mean)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t, len(rows) > 0
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}
