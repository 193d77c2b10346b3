package paper002

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/leolab/leolab/report"
)

// live reports whether the study ran on the emulator.
func live(parts []*Part) bool {
	return slices.ContainsFunc(parts, func(p *Part) bool { return p.Campaign.Engine == EngineEmu })
}

// LiveNote says, before a live study runs, what runs live and for how
// long.
func LiveNote(parts []*Part) string {
	var ids []string
	var wall time.Duration
	for _, p := range parts {
		for _, f := range p.Figures {
			ids = append(ids, f.ID)
		}
		wall += time.Duration(len(p.Runs)) * p.Campaign.Duration
	}
	return fmt.Sprintf("%s run live with kernel TCP (%s), one run at a time: %d runs, at least %v of wall clock; %s",
		strings.Join(ids, ", "), strings.Join(schemes(parts), ", "), runCount(parts), wall.Round(time.Second), simOnlyNote())
}

// simOnlyNote names the figures that stay on the simulator.
func simOnlyNote() string {
	var ids []string
	for _, f := range Figures() {
		if f.SimOnly != "" {
			ids = append(ids, f.ID)
		}
	}
	return strings.Join(ids, ", ") + " run on sim only (per-flow RTTs, topologies and moves do not run live)"
}

func runCount(parts []*Part) int {
	n := 0
	for _, p := range parts {
		n += len(p.Runs)
	}
	return n
}

// schemes are the live study's schemes, as named in the report.
func schemes(parts []*Part) []string {
	var out []string
	for _, p := range parts {
		for _, c := range p.Campaign.Axes.CCA {
			if n := schemeName(c); !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// liveSection is what the live study ran where, its physical checks and
// (with the simulated twins) the live numbers beside the model's.
func (d *Data) liveSection(parts []*Part, checks []LiveCheck) report.Section {
	s := report.Section{Title: "Engine: the live emulator"}
	s.Text = append(s.Text, "The figures below ran live through leolab's emulator (emu): kernel TCP ("+strings.Join(schemes(parts), ", ")+
		") between two network namespaces, its packets through the same link models as the simulator (the LeoEM delay replay, "+
		"its handover interruptions, the queue disciplines) in the userspace pump at wall-clock time, one run at a time. "+
		"The kernel has no SaTCP, BBRv3, Vivace, Orca, Astraea or Sage: the findings that compare those are not judged live, and BBR here is the kernel's BBR v1.")
	ran := map[string]*Part{}
	for _, p := range parts {
		for _, f := range p.Figures {
			ran[f.ID] = p
		}
	}
	t := report.Table{Title: "Where each figure ran", Name: "live-figures", Columns: []report.Column{
		{Key: "figure", Title: "figure", Kind: report.Text},
		{Key: "engine", Title: "engine", Kind: report.Text},
		{Key: "runs", Title: "runs", Kind: report.Int},
		{Key: "note", Title: "note", Kind: report.Text},
	}}
	for _, f := range Figures() {
		var row []report.Cell
		switch p := ran[f.ID]; {
		case p != nil:
			row = []report.Cell{report.Str(f.Title), report.Str("emu"), report.Count(int64(len(p.Runs))),
				report.Str(fmt.Sprintf("%d runs per point × %v", runsPer(p), p.Campaign.Duration))}
		case f.SimOnly != "":
			row = []report.Cell{report.Str(f.Title), report.Str("sim only"), report.Count(0), report.Str(f.SimOnly)}
		default:
			row = []report.Cell{report.Str(f.Title), report.Str("emu (not asked)"), report.Count(0),
				report.Str("runs live with --figures " + f.ID)}
		}
		t.Rows = append(t.Rows, row)
	}
	s.Tables = append(s.Tables, t)
	failed, stalled := 0, 0
	ct := report.Table{Title: "Physical checks of the live runs", Name: "live-checks", Columns: []report.Column{
		{Key: "figure", Title: "figure", Kind: report.Text},
		{Key: "run", Title: "run", Kind: report.Text},
		{Key: "check", Title: "check", Kind: report.Text},
		{Key: "value", Title: "value", Kind: report.Float, Digits: 3},
		{Key: "bound", Title: "bound", Kind: report.Text},
		{Key: "unit", Title: "unit", Kind: report.Text},
		{Key: "ok", Title: "within", Kind: report.Text},
		{Key: "pump_gap_ms", Title: "pump gap max", Unit: "ms", Kind: report.Float, Digits: 1},
		{Key: "why", Title: "bound from", Kind: report.Text},
	}}
	for _, c := range checks {
		ok := "yes"
		if !c.OK() {
			ok = "no"
			failed++
			if c.Stalled {
				ok = "no (host stalled)"
				stalled++
			}
		}
		ct.Rows = append(ct.Rows, []report.Cell{report.Str(c.Figure), report.Str(c.Run), report.Str(c.What), report.Num(c.Value),
			report.Str(c.Bound()), report.Str(c.Unit), report.Str(ok), report.Num(float64(c.PumpGap) / float64(time.Millisecond)), report.Str(c.Why)})
	}
	s.Text = append(s.Text, fmt.Sprintf("Each live run is checked against what the link model fixes whatever the controller does "+
		"(goodput under the link's payload rate, the LeoEM path's round-trip propagation second by second, the AQMs' target sojourn and fairness); "+
		"the bounds and their reasons are in paper002/livetol.go. %d checks, %d outside their bound (%d of them in runs whose pump was off its CPU longer than %v, the stall the bounds allow for).",
		len(checks), failed, stalled, liveStall))
	s.Tables = append(s.Tables, ct)
	if tt, ok := d.twinTable(parts); ok {
		s.Text = append(s.Text, "The last table sets each live point beside the simulator's run of the same scenario (same seed, start jitter and size; leolab's cubic and bbr1 for the kernel's CUBIC and BBR): a comparison, not a check — the kernel's algorithms differ from ours in HyStart, TSO bursts, pacing and delayed ACKs.")
		s.Tables = append(s.Tables, tt)
	}
	return s
}

// LiveFailures are the checks outside their bound, as text.
func LiveFailures(checks []LiveCheck) []string {
	var out []string
	for _, c := range checks {
		if !c.OK() {
			host := ""
			if c.Stalled {
				host = fmt.Sprintf(" (pump gap %.1f ms: host stalled)", float64(c.PumpGap)/float64(time.Millisecond))
			}
			out = append(out, fmt.Sprintf("%s %s: %s %.4g %s, want %s%s", c.Figure, c.Run, c.What, c.Value, c.Unit, c.Bound(), host))
		}
	}
	return out
}
