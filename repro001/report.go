package repro001

import (
	"fmt"
	"strings"

	"github.com/leolab/leolab/report"
)

// Title is the report's title (engine sim); TitleLive for engine emu.
const (
	Title     = "leolab reproduce --paper 001: NetScalpel's findings read back from the simulated Starlink link"
	TitleLive = "leolab reproduce --paper 001: NetScalpel's findings read back live from the emulated Starlink link"
)

// Report builds the study's report: the comparison tables, one figure
// per finding (default profile) with the paper's number and ours in its
// caption, the TCP tables, and the differences. meta heads it (version,
// command); the report reads no clock.
func (st *Study) Report(meta []report.Meta) (*report.Report, error) {
	title := Title
	if st.Options.Engine == EngineEmu {
		title = TitleLive
	}
	r := &report.Report{Title: title,
		Subtitle: "Seed 001 (\"Dissecting the StarLink: Characterizing Queuing and Flow Dynamics in the Starlink Network\"): every link quantity inferred by the prober from probe packets, next to the paper's number and the simulated profile's value",
		Meta:     append(append([]report.Meta(nil), meta...), st.meta()...)}
	r.Sections = append(r.Sections, st.summarySection())
	figs, err := st.figureSections()
	if err != nil {
		return nil, err
	}
	r.Sections = append(r.Sections, figs...)
	for _, vr := range st.Variants {
		r.Sections = append(r.Sections, vr.quantitySection())
	}
	if len(st.SlowStart) > 0 {
		s, err := st.tcpSection()
		if err != nil {
			return nil, err
		}
		r.Sections = append(r.Sections, s)
	}
	r.Sections = append(r.Sections, st.differences())
	return r, nil
}

func (st *Study) meta() []report.Meta {
	size := "quick"
	if st.Options.Full {
		size = "full"
	}
	var vs []string
	for _, vr := range st.Variants {
		vs = append(vs, vr.Variant.Name)
	}
	return []report.Meta{{Key: "study", Value: size}, {Key: "seed", Value: fmt.Sprint(st.Options.Seed)},
		{Key: "engine", Value: st.Options.Engine}, {Key: "profiles", Value: strings.Join(vs, ", ")}}
}

// summarySection counts the quantities within tolerance per profile.
func (st *Study) summarySection() report.Section {
	t := report.Table{Title: "Quantities within tolerance, per profile", Name: "summary", Columns: []report.Column{
		{Key: "profile", Title: "profile", Kind: report.Text},
		{Key: "about", Title: "what differs from the default", Kind: report.Text},
		{Key: "quantities", Title: "quantities", Kind: report.Int},
		{Key: "within", Title: "within tolerance", Kind: report.Int},
		{Key: "outside", Title: "outside", Kind: report.Text},
	}}
	for _, vr := range st.Variants {
		var out []string
		for _, q := range vr.Failed() {
			out = append(out, q.Direction+" "+q.Name)
		}
		t.Rows = append(t.Rows, []report.Cell{report.Str(vr.Variant.Name), report.Str(vr.Variant.About),
			report.Count(int64(len(vr.Quantities))), report.Count(int64(len(vr.Quantities) - len(vr.Failed()))),
			report.Str(strings.Join(out, "; "))})
	}
	return report.Section{Title: "Summary", Text: []string{
		"Each procedure of seed 001 runs as scenarios on engine " + st.Options.Engine + " (sim: the simulator; emu: live through the emulator); the prober (package probe) reads every quantity from the probe packets' send times and one-way delays alone, as `leolab probe` does on a real dish. The profile's value is only the yardstick: the perturbed profiles move every knob a procedure reads, so an inference that passes on all of them is not hard-wired to seed 001's numbers.",
		"Procedures learn from each other as on a real link: the reconfiguration schedule places the single-slot runs a second after a boundary, the ramp's peak sizes the overloading probes, the burst's buffer feeds the PoP sweep, the sweep's threshold keeps the elephants below the PoP.",
	}, Tables: []report.Table{t}}
}

// quantityColumns is the schema of a profile's comparison table.
func quantityColumns() []report.Column {
	return []report.Column{
		{Key: "finding", Title: "finding", Kind: report.Text},
		{Key: "direction", Title: "direction", Kind: report.Text},
		{Key: "quantity", Title: "quantity", Kind: report.Text},
		{Key: "unit", Title: "unit", Kind: report.Text},
		{Key: "paper", Title: "paper", Kind: report.Text},
		{Key: "profile", Title: "profile", Kind: report.Float, Digits: 4},
		{Key: "inferred", Title: "inferred", Kind: report.Float, Digits: 4},
		{Key: "tolerance", Title: "tolerance", Kind: report.Text},
		{Key: "ok", Title: "within", Kind: report.Text},
		{Key: "why", Title: "tolerance from", Kind: report.Text},
	}
}

func (vr *VariantResult) quantitySection() report.Section {
	t := report.Table{Title: "Inferred against profile: " + vr.Variant.Name, Name: "quantities-" + vr.Variant.Name, Columns: quantityColumns()}
	for _, q := range vr.Quantities {
		ok := "yes"
		if !q.OK() {
			ok = "NO"
		}
		t.Rows = append(t.Rows, []report.Cell{report.Str(q.Finding), report.Str(q.Direction), report.Str(q.Name), report.Str(q.Unit),
			report.Str(q.Paper), report.Num(q.Profile), report.Num(q.Inferred), report.Str(q.Tolerance()), report.Str(ok), report.Str(q.Why)})
	}
	text := []string{"Profile " + vr.Variant.Name + ": " + vr.Variant.About + "."}
	if len(vr.Variant.Overrides) > 0 {
		text = append(text, "Overrides: "+vr.Variant.overrides(nil))
	}
	text = append(text, "Yes/no quantities are 1 (yes) or 0 (no). Findings are numbered as in the seed's text (1–24).")
	return report.Section{Title: "Quantities: " + vr.Variant.Name, Text: text, Tables: []report.Table{t}}
}
