package campaign

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/leolab/leolab/report"
)

// ReportInput is what BuildReport puts on the page.
type ReportInput struct {
	Title    string
	Campaign *Campaign
	Rows     []Row         // Compare's output
	Meta     []report.Meta // caller's provenance: version, store, wall time…
	Notes    []string      // e.g. warnings about skipped CCAs
	// Ceilings, when set, add the magnitude table with its noise ceiling
	// (Ceilings of Rows and the spreads of the real runs they were
	// compared with).
	Ceilings []Ceiling
}

// BuildReport lays out a campaign's comparison: the rank correlations, then
// per direction and kind the per-CCA means over the calibration cities and
// the per-city cells (simulated and real side by side), and the seed-000
// throughput-vs-RTT-inflation figures for both.
func BuildReport(in ReportInput) (*report.Report, error) {
	c := in.Campaign
	r := &report.Report{Title: in.Title, Subtitle: c.Name}
	r.Meta = append(r.Meta, in.Meta...)
	r.Meta = append(r.Meta,
		report.Meta{Key: "campaign", Value: fmt.Sprintf("%s: engine %s, %v per run, %d seed(s) %v", c.Name, c.Engine, c.Duration, len(c.Seeds), c.Seeds)},
		report.Meta{Key: "axes", Value: fmt.Sprintf("cca %v; city %v; direction %v; kind %v", c.Axes.CCA, c.Axes.City, c.Axes.Direction, c.Axes.Kind)},
		report.Meta{Key: "real data", Value: RealProvenance()},
	)
	fid := Spearman(in.Rows)
	fs := fidelitySection(fid, in.Notes)
	if in.Ceilings != nil {
		if t, ok := magnitudeTable(in.Rows, in.Ceilings); ok {
			fs.Text = append(fs.Text, "Magnitude: per city and CCA, the share of cells whose simulated value is within "+
				"each band of the real one, next to the noise ceiling: the count a model exact in the mean would "+
				"expect, given the real data's run-to-run spread in both the real targets (1 to 5 runs a cell) and "+
				"the simulated runs (a faithful model's seeds vary as real runs do).")
			fs.Tables = append(fs.Tables, t)
		}
	}
	r.Sections = append(r.Sections, fs)
	for _, p := range pairs(in.Rows) {
		sec, ok, err := pairSection(in.Rows, p[0], p[1])
		if err != nil {
			return nil, err
		}
		if ok {
			r.Sections = append(r.Sections, sec)
		}
	}
	return r, nil
}

// pairs lists the (kind, direction) of rows once each, in the order they
// first appear; the direction is empty for a fixed path. Rows need not be
// grouped (calibrate --cv appends each held-out city's cells in turn).
func pairs(rows []Row) [][2]string {
	var out [][2]string
	for _, r := range rows {
		p := [2]string{r.Kind, r.Direction}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func fidelitySection(fid []Fidelity, notes []string) report.Section {
	s := report.Section{Title: "Fidelity: simulated vs real per-CCA throughput ranking"}
	s.Text = append(s.Text, "Spearman rank correlation of per-CCA mean throughput, simulated against the real "+
		"Starlink measurements, over the cities with real data (Tokyo has none) and excluding ccp, whose real "+
		"deployment (Copa through CCP) was broken. 1 means the simulator orders the CCAs exactly as Starlink did.")
	s.Text = append(s.Text, notes...)
	t := report.Table{Title: "Rank correlation of per-CCA mean throughput", Name: "fidelity", Columns: []report.Column{
		{Key: "direction", Title: "direction", Kind: report.Text},
		{Key: "kind", Title: "kind", Kind: report.Text},
		{Key: "spearman", Title: "Spearman ρ", Kind: report.Float, Digits: 2},
		{Key: "ccas", Title: "CCAs compared", Kind: report.Int},
		{Key: "cca_list", Title: "which", Kind: report.Text},
	}}
	for _, f := range fid {
		t.Rows = append(t.Rows, []report.Cell{report.Str(f.Direction), report.Str(f.Kind), report.Num(f.Rho),
			report.Count(int64(len(f.CCAs))), report.Str(strings.Join(f.CCAs, " "))})
	}
	s.Tables = append(s.Tables, t)
	return s
}

// magnitudeTable is Magnitudes next to Ceilings, one row per (kind,
// direction).
func magnitudeTable(rows []Row, ceils []Ceiling) (report.Table, bool) {
	mags := Magnitudes(rows)
	if len(mags) == 0 {
		return report.Table{}, false
	}
	t := report.Table{Title: "Magnitude agreement and noise ceiling", Name: "magnitude", Columns: MagnitudeColumns(nil, true)}
	for _, m := range mags {
		t.Rows = append(t.Rows, MagnitudeRow(nil, m, ceils))
	}
	return t, true
}

// pairSection is the section of one direction and kind; ok is false when
// nothing was simulated for it.
func pairSection(rows []Row, kind, dir string) (report.Section, bool, error) {
	var cells []Row
	for _, r := range rows {
		if r.Kind == kind && r.Direction == dir {
			cells = append(cells, r)
		}
	}
	avg := Average(rows, kind, dir)
	if len(avg) == 0 {
		return report.Section{}, false, nil
	}
	name, title := kind, kind
	if dir != "" {
		name, title = dir+"-"+kind, fmt.Sprintf("%s, %s", strings.ToUpper(dir[:1])+dir[1:], kind)
	}
	s := report.Section{Title: title}
	s.Text = []string{fmt.Sprintf("%s (%s). Averages are over the cities with both simulated and real "+
		"values (all simulated cells where none has real data); real cells are empty where no measurement "+
		"exists (Tokyo, CCAs or paths not measured).", title, kindText(kind))}
	s.Tables = []report.Table{
		ResultsTable("Per-CCA mean over the calibration cities ("+name+")", "mean-"+name, avg),
		ResultsTable("Per city ("+name+")", "cities-"+name, cells),
	}
	for _, side := range []struct {
		what string
		get  func(Row) Metrics
	}{{"simulated", func(r Row) Metrics { return r.Sim }}, {"real", func(r Row) Metrics { return r.Real }}} {
		flows := summaries(cells, side.get)
		if len(flows) == 0 {
			continue
		}
		fig, err := report.ThroughputInflation(fmt.Sprintf("%s, %s: throughput vs RTT inflation", side.what, strings.ReplaceAll(name, "-", " ")), flows)
		if err != nil {
			return s, false, fmt.Errorf("report %s %s: %w", side.what, name, err)
		}
		fig.Name = side.what + "-" + name
		fig.Caption = fmt.Sprintf("%s: one point per city and CCA; marker area ∝ retransmissions per GB.", side.what)
		s.Figures = append(s.Figures, fig)
	}
	return s, true, nil
}

func kindText(kind string) string {
	if kind == Concurrent {
		return "all CCAs at once on one path, the dataset's competitive runs"
	}
	return "one flow alone on the path, the dataset's sequential runs"
}

// summaries turns cells into the figure's points, one per city and CCA,
// leaving out missing values; concurrent cells get their city's fair share.
func summaries(cells []Row, get func(Row) Metrics) []report.FlowSummary {
	var out []report.FlowSummary
	for _, r := range cells {
		m := get(r)
		if m.N == 0 || math.IsNaN(m.ThroughputMbps+m.RetransPerGB+m.RTTInflation) {
			continue
		}
		out = append(out, report.FlowSummary{Group: r.Direction + "/" + r.City + "/" + r.Kind, Label: r.City,
			CCA: r.CCA, City: r.City, Direction: r.Direction, ThroughputMbps: m.ThroughputMbps,
			RetransPerGB: m.RetransPerGB, RTTInflation: m.RTTInflation})
	}
	if len(cells) > 0 && cells[0].Kind == Concurrent {
		share := map[string][2]float64{}
		for _, f := range out {
			s := share[f.Group]
			share[f.Group] = [2]float64{s[0] + f.ThroughputMbps, s[1] + 1}
		}
		for i := range out {
			s := share[out[i].Group]
			out[i].FairShareMbps = s[0] / s[1]
		}
	}
	return out
}
