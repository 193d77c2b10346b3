package analyze

import (
	"fmt"
	"strings"

	"github.com/leolab/leolab/report"
)

// Limits that keep a report of a whole dataset readable: beyond them the
// metrics table and its CSV still hold every flow, and the report says what
// was left out.
const (
	maxGroupFigures = 12 // groups drawn as time series, slot and queue plots
	maxDiagnostics  = 40 // warning and error lines listed in the report
)

// ReportOptions are what BuildReport cannot learn from the analysis.
type ReportOptions struct {
	Title string
	Meta  []report.Meta // provenance lines (version, inputs)
	// Diagnostics are the readers' warnings and the files that failed.
	Warnings []string
	Errors   []string
}

// builder assembles a report and numbers its figures so that their file
// names are unique.
type builder struct {
	a     *Analysis
	n     int
	notes []string // figures that could not be drawn
}

// add names a figure (or records why it is missing) and appends it.
func (b *builder) add(figs []*report.Figure, f *report.Figure, caption string, err error) []*report.Figure {
	if err != nil {
		b.notes = append(b.notes, err.Error())
		return figs
	}
	b.n++
	f.Name = fmt.Sprintf("%02d-%s", b.n, f.Name)
	f.Caption = caption
	return append(figs, f)
}

// BuildReport lays the analysis out as a report: the metrics and fairness
// tables, seed 000's throughput vs RTT inflation and Pantheon's throughput vs
// p95 delay, per-group time series, the reconfiguration-slot profile, the
// M/G/1 queue over time, two-flow phase planes, and the inputs' diagnostics.
// A figure that cannot be drawn is left out with a note; nothing is written.
func BuildReport(a *Analysis, opt ReportOptions) *report.Report {
	b := &builder{a: a}
	title := opt.Title
	if title == "" {
		title = "leolab analyze"
	}
	r := &report.Report{Title: title, Subtitle: fmt.Sprintf("%d flows in %d groups", len(a.Flows), len(a.Groups)), Meta: opt.Meta}
	r.Sections = append(r.Sections, b.metricsSection(), b.scatterSection())
	for _, s := range []report.Section{b.seriesSection(), b.slotSection(), b.queueSection(), b.phaseSection()} {
		if len(s.Figures) > 0 {
			r.Sections = append(r.Sections, s)
		}
	}
	r.Sections = append(r.Sections, b.inputSection(opt))
	return r
}

func (b *builder) metricsSection() report.Section {
	s := report.Section{Title: "Per-flow metrics", Text: []string{
		"Throughput, retransmissions and RTT figures are computed from each flow's per-interval series " +
			"(from = intervals); end-summary rows carry the source's own totals (from = summary). " +
			"Min RTT is the sender's per-ACK minimum when the source reports it, else the least interval srtt; " +
			"mean and p95 RTT are over interval srtt (nearest rank). RTT inflation = mean/min RTT (seed 000 Fig. 9). " +
			"Share is T_i/ΣT within a group of concurrent flows. The M/G/1 queue is the mean of seed 000's " +
			"estimate over 15 s windows. Retransmit peak is the second of the 15 s Starlink reconfiguration slot " +
			"(0 = first second after :12/:27/:42/:57 UTC) with the most retransmissions.",
	}}
	s.Tables = append(s.Tables, b.a.Table())
	if t, ok := b.a.fairnessTable(); ok {
		s.Tables = append(s.Tables, t)
	}
	return s
}

// fairnessTable lists the fairness of every concurrent group.
func (a *Analysis) fairnessTable() (report.Table, bool) {
	t := report.Table{Title: "Fairness of concurrent flows", Name: "fairness", Columns: []report.Column{
		{Key: "group", Title: "group", Kind: report.Text},
		{Key: "n", Title: "flows", Kind: report.Int},
		{Key: "jain", Title: "Jain index", Kind: report.Float, Digits: 3},
		{Key: "max_min", Title: "max–min", Unit: "min/max", Kind: report.Float, Digits: 3},
		{Key: "pf", Title: "PF score", Kind: report.Float, Digits: 3},
		{Key: "total_mbps", Title: "α=0 utility ΣT", Unit: "Mbit/s", Kind: report.Float, Digits: 2},
		{Key: "fair_share_mbps", Title: "fair share ΣT/N", Unit: "Mbit/s", Kind: report.Float, Digits: 2},
	}}
	for _, g := range a.Groups {
		if !g.Concurrent {
			continue
		}
		t.Rows = append(t.Rows, []report.Cell{report.Str(g.Group), report.Count(int64(g.N)), report.Num(g.Jain),
			report.Num(g.MinMax), report.Num(g.PF), report.Num(g.TotalMbps), report.Num(g.TotalMbps / float64(g.N))})
	}
	return t, len(t.Rows) > 0
}

// bucket is the set of flows one scatter plot compares: the dataset's
// direction and scenario kind, else the flow's group.
func bucket(m *FlowMetrics) string {
	if m.Meta.Kind == KindSequential || m.Meta.Kind == KindCompetitive {
		return strings.TrimSpace(m.Meta.Direction + " " + m.Meta.Kind)
	}
	return m.Group
}

func (b *builder) summaries() (keys []string, by map[string][]report.FlowSummary) {
	by = map[string][]report.FlowSummary{}
	for i := range b.a.Flows {
		m := &b.a.Flows[i]
		k := bucket(m)
		if _, ok := by[k]; !ok {
			keys = append(keys, k)
		}
		by[k] = append(by[k], report.FlowSummary{Group: m.Group, Label: m.Label, CCA: ccaOr(m.Meta.CCA),
			City: m.Meta.City, Direction: m.Meta.Direction, ThroughputMbps: m.ThroughputMbps,
			RetransPerGB: m.RetransPerGB, RTTInflation: m.RTTInflation, P95DelayMs: m.P95RTTMs,
			FairShareMbps: m.FairShareMbps})
	}
	return keys, by
}

func ccaOr(c string) string {
	if c == "" {
		return "unknown"
	}
	return c
}

func (b *builder) scatterSection() report.Section {
	s := report.Section{Title: "Throughput, RTT inflation and delay"}
	keys, by := b.summaries()
	var withDelay []report.FlowSummary
	for _, k := range keys {
		f, err := report.ThroughputInflation("Throughput vs RTT inflation: "+k, by[k])
		s.Figures = b.add(s.Figures, f, "Seed 000 Fig. 9/10 style: mean throughput against RTT inflation (mean/min RTT); "+
			"marker area ∝ retransmissions per GB; dashed lines are the fair share ΣT/N of concurrent groups.", err)
		for _, fs := range by[k] {
			if fs.P95DelayMs > 0 {
				withDelay = append(withDelay, fs)
			}
		}
	}
	if len(withDelay) > 0 {
		f, err := report.DelayThroughput("Throughput vs p95 RTT", withDelay)
		s.Figures = b.add(s.Figures, f, "Pantheon style: throughput against the 95th-percentile RTT (delay axis reversed: better is up and right).", err)
	}
	return s
}

func (b *builder) inputSection(opt ReportOptions) report.Section {
	s := report.Section{Title: "Inputs and diagnostics"}
	files := map[string]bool{}
	for _, f := range b.a.Flows {
		files[f.File] = true
	}
	s.Text = append(s.Text, fmt.Sprintf("%d files analysed, %d failed, %d warnings.", len(files), len(opt.Errors), len(opt.Warnings)))
	s.Text = append(s.Text, capLines("error: ", opt.Errors)...)
	s.Text = append(s.Text, capLines("warning: ", opt.Warnings)...)
	s.Text = append(s.Text, capLines("figure left out: ", b.notes)...)
	return s
}

// capLines prefixes lines and keeps at most maxDiagnostics of them.
func capLines(prefix string, lines []string) []string {
	var out []string
	for i, l := range lines {
		if i == maxDiagnostics {
			out = append(out, fmt.Sprintf("%s… and %d more", prefix, len(lines)-i))
			break
		}
		out = append(out, prefix+l)
	}
	return out
}
