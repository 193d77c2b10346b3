package campaign

import (
	"fmt"
	"strings"

	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
)

// SweepSection summarises a sweep campaign per point: for every
// combination of the cca (or the template's flows) and the swept values,
// the runs stored, and over them the mean with its t-based 95 %
// confidence interval (metrics.MeanCI) of the aggregate goodput, Jain's
// index, the mean RTT inflation of the flows and, for two flows, the
// goodput ratio min/max (seed 002's metrics). ok is false for a campaign
// without a sweep or without stored runs.
func SweepSection(c *Campaign, runs []Run, flows []FlowRow) (report.Section, bool) {
	if len(c.Sweep) == 0 {
		return report.Section{}, false
	}
	byRun := map[string][]FlowRow{}
	for _, f := range flows {
		byRun[f.RunID] = append(byRun[f.RunID], f)
	}
	type point struct {
		label, ccas             string
		sets                    []Setting
		agg, jain, infl, ratios []float64
	}
	var pts []*point
	idx := map[string]*point{}
	for _, r := range runs {
		fl := byRun[r.ID]
		if len(fl) == 0 {
			continue
		}
		key := r.Kind + r.Direction + r.City + strings.Join(r.CCAs, "+") + fmt.Sprint(r.Sweep)
		p := idx[key]
		if p == nil {
			p = &point{ccas: strings.Join(r.CCAs, "+"), sets: r.Sweep,
				label: strings.Trim(strings.Join([]string{r.Direction, r.City}, " "), " ")}
			idx[key] = p
			pts = append(pts, p)
		}
		tput := make([]float64, len(fl))
		var agg, infl float64
		for i, f := range fl {
			tput[i] = f.ThroughputMbps
			agg += f.ThroughputMbps
			infl += f.RTTInflation
		}
		p.agg = append(p.agg, agg)
		p.jain = append(p.jain, metrics.Jain(tput))
		p.infl = append(p.infl, infl/float64(len(fl)))
		if len(fl) == 2 {
			p.ratios = append(p.ratios, metrics.GoodputRatio(tput[0], tput[1]))
		}
	}
	if len(pts) == 0 {
		return report.Section{}, false
	}
	t := report.Table{Title: "Per sweep point (mean ± 95 % CI over the stored runs)", Name: "sweep",
		Columns: []report.Column{{Key: "flows", Title: "flows", Kind: report.Text}}}
	if pts[0].label != "" {
		t.Columns = append(t.Columns, report.Column{Key: "path", Title: "path", Kind: report.Text})
	}
	for _, s := range c.Sweep {
		t.Columns = append(t.Columns, report.Column{Key: strings.NewReplacer(".", "_", "[", "_", "]", "").Replace(s.Key), Title: s.Key, Kind: report.Text})
	}
	t.Columns = append(t.Columns, report.Column{Key: "runs", Title: "runs", Kind: report.Int})
	for _, q := range []struct{ key, title, unit string }{{"goodput_mbps", "aggregate goodput", "Mbit/s"},
		{"jain", "Jain's index", ""}, {"rtt_inflation", "RTT inflation", "mean/min"}, {"goodput_ratio", "goodput ratio (2 flows)", "min/max"}} {
		t.Columns = append(t.Columns, report.Column{Key: q.key, Title: q.title, Unit: q.unit, Kind: report.Float, Digits: 3},
			report.Column{Key: q.key + "_ci95", Title: "± 95 % CI", Unit: q.unit, Kind: report.Float, Digits: 3})
	}
	for _, p := range pts {
		row := []report.Cell{report.Str(p.ccas)}
		if pts[0].label != "" {
			row = append(row, report.Str(p.label))
		}
		for _, s := range p.sets {
			row = append(row, report.Str(s.Value))
		}
		row = append(row, report.Count(int64(len(p.agg))))
		for _, xs := range [][]float64{p.agg, p.jain, p.infl, p.ratios} {
			e := metrics.MeanCI(xs)
			row = append(row, report.Num(e.Mean), report.Num(e.CI))
		}
		t.Rows = append(t.Rows, row)
	}
	return report.Section{Title: "Sweep", Text: []string{"One row per combination of the flows and the swept values; " +
		"the interval is the two-sided 95 % confidence interval of the mean, t-based (none for a single run)."},
		Tables: []report.Table{t}}, true
}
