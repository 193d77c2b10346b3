package calibrate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/report"
)

// Stage is one fit of a calibration: its parameters, the cells it was fitted
// on and its result.
type Stage struct {
	Name   string // e.g. "downlink"
	Result *Result
	Cells  string // what it was fitted on, for the record
}

// ProfileYAML writes the fitted values as profile overrides (dotted paths,
// the layout of cities.yaml's site block and of path.overrides), each with
// its bounds and start value, and the fit in comments: objective before and
// after, and the per-cell residuals at the fitted values. held are the
// values every evaluation ran under (calibrate --set), part of the profile.
func ProfileYAML(stages []Stage, tied, held map[string]any, obj Objective, header []string) string {
	var b strings.Builder
	for _, h := range header {
		fmt.Fprintf(&b, "# %s\n", h)
	}
	fmt.Fprintf(&b, "# objective: mean per-cell %s loss of log(sim/real) in band units (±%.0f %% throughput, %.0f× retransmissions/GB, ±%.0f %% RTT inflation), weights %g/%g/%g\n",
		obj.Loss, 100*campaign.ThroughputBand, campaign.RetransFactor, 100*campaign.InflationBand,
		obj.Weights.Throughput, obj.Weights.Retrans, obj.Weights.Inflation)
	for _, st := range stages {
		r := st.Result
		fmt.Fprintf(&b, "#\n# stage %s (fitted on %s): objective %.4f -> %.4f in %d evaluations (%s)\n",
			st.Name, st.Cells, r.StartCost, r.BestCost, len(r.Evals), r.Status)
		for i, p := range r.Space {
			fmt.Fprintf(&b, "%s: %v   # fitted within %s..%s; start %s\n", p.Path, p.Value(r.Best[i]),
				p.Format(p.Lo), p.Format(p.Hi), p.Format(r.Start[i]))
		}
	}
	if len(held) > 0 {
		b.WriteString("#\n# held at these values in every evaluation (--set):\n")
		for _, k := range slices.Sorted(maps.Keys(held)) {
			if !slices.ContainsFunc(stages, func(st Stage) bool { return st.Result.Space.Has(k) }) {
				fmt.Fprintf(&b, "%s: %v\n", k, held[k])
			}
		}
	}
	if len(tied) > 0 {
		b.WriteString("#\n# tied to the fitted rates (seed 001's ratio of median slot-to-slot change to the maximum rate):\n")
		for _, k := range slices.Sorted(maps.Keys(tied)) {
			fmt.Fprintf(&b, "%s: %v\n", k, tied[k])
		}
	}
	b.WriteString("#\n# per-cell residuals at the fitted values (sim/real ratio):\n")
	for _, st := range stages {
		for _, e := range obj.Residuals(st.Result.BestRow) {
			fmt.Fprintf(&b, "#   %-10s %-8s %-8s %-6s throughput %6.1f/%6.1f Mbit/s (%.2f)  retrans/GB %7.0f/%7.0f (%.2f)  RTT infl. %.2f/%.2f\n",
				e.Kind, e.Direction, e.City, e.CCA, e.Sim.ThroughputMbps, e.Real.ThroughputMbps,
				e.Sim.ThroughputMbps/e.Real.ThroughputMbps, e.Sim.RetransPerGB, e.Real.RetransPerGB,
				(e.Sim.RetransPerGB+retransFloor)/(e.Real.RetransPerGB+retransFloor), e.Sim.RTTInflation, e.Real.RTTInflation)
		}
	}
	return b.String()
}

// ResidualColumns is the schema of residuals.csv.
func ResidualColumns() []report.Column {
	f := func(key, title, unit string, d int) report.Column {
		return report.Column{Key: key, Title: title, Unit: unit, Kind: report.Float, Digits: d}
	}
	return []report.Column{
		{Key: "set", Title: "set", Kind: report.Text},
		{Key: "kind", Title: "kind", Kind: report.Text},
		{Key: "direction", Title: "direction", Kind: report.Text},
		{Key: "city", Title: "city", Kind: report.Text},
		{Key: "cca", Title: "CCA", Kind: report.Text},
		f("sim_throughput_mbps", "sim throughput", "Mbit/s", 1),
		f("real_throughput_mbps", "real throughput", "Mbit/s", 1),
		f("sim_retrans_per_gb", "sim retrans", "per GB", 0),
		f("real_retrans_per_gb", "real retrans", "per GB", 0),
		f("sim_rtt_inflation", "sim RTT infl.", "ratio", 3),
		f("real_rtt_inflation", "real RTT infl.", "ratio", 3),
		f("z_throughput", "throughput residual", "bands", 2),
		f("z_retrans", "retrans residual", "bands", 2),
		f("z_inflation", "RTT infl. residual", "bands", 2),
		f("cost", "cost", "", 3),
	}
}

// ResidualTable lists residuals under a set name ("start", "fitted",
// "held out").
func ResidualTable(title, name string, sets map[string][]Residual, order []string) report.Table {
	t := report.Table{Title: title, Name: name, Columns: ResidualColumns()}
	for _, set := range order {
		for _, e := range sets[set] {
			t.Rows = append(t.Rows, []report.Cell{report.Str(set), report.Str(e.Kind), report.Str(e.Direction),
				report.Str(e.City), report.Str(e.CCA), report.Num(e.Sim.ThroughputMbps), report.Num(e.Real.ThroughputMbps),
				report.Num(e.Sim.RetransPerGB), report.Num(e.Real.RetransPerGB), report.Num(e.Sim.RTTInflation),
				report.Num(e.Real.RTTInflation), report.Num(e.Throughput), report.Num(e.Retrans), report.Num(e.Inflation),
				report.Num(e.Cost)})
		}
	}
	return t
}

// MagnitudeTable is campaign.Magnitudes of several sets side by side, each
// count next to its noise ceiling in ceils (campaign.Ceilings of the cells
// the sets share; nil: no ceiling columns).
func MagnitudeTable(title, name string, sets map[string][]campaign.Row, order []string, ceils []campaign.Ceiling) report.Table {
	lead := []report.Column{{Key: "set", Title: "set", Kind: report.Text}}
	t := report.Table{Title: title, Name: name, Columns: campaign.MagnitudeColumns(lead, ceils != nil)}
	for _, set := range order {
		for _, m := range campaign.Magnitudes(sets[set]) {
			t.Rows = append(t.Rows, campaign.MagnitudeRow([]report.Cell{report.Str(set)}, m, ceils))
		}
	}
	return t
}

// ScatterFigures draws, per (kind, direction) of rows, simulated against
// real throughput on log–log axes with the ±25 % band.
func ScatterFigures(set string, rows []campaign.Row) ([]*report.Figure, error) {
	type kd struct{ kind, dir string }
	var order []kd
	pts := map[kd][]report.SimRealPoint{}
	for _, r := range rows {
		if !campaign.Comparable(r) {
			continue
		}
		k := kd{r.Kind, r.Direction}
		if _, ok := pts[k]; !ok {
			order = append(order, k)
		}
		pts[k] = append(pts[k], report.SimRealPoint{CCA: r.CCA, Label: r.City, Sim: r.Sim.ThroughputMbps, Real: r.Real.ThroughputMbps})
	}
	var figs []*report.Figure
	for _, k := range order {
		f, err := report.SimReal(fmt.Sprintf("%s: %s %s throughput, sim vs real", set, k.dir, k.kind), "throughput (Mbit/s)",
			campaign.ThroughputBand, pts[k])
		if err != nil {
			return nil, err
		}
		f.Name = strings.ReplaceAll(fmt.Sprintf("%s-%s-%s", set, k.dir, k.kind), " ", "-")
		f.Caption = fmt.Sprintf("One point per city and CCA (%d); solid: sim = real; dashed: ±%.0f %%.", len(pts[k]), 100*campaign.ThroughputBand)
		figs = append(figs, f)
	}
	return figs, nil
}
