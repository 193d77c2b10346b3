package paper002

import (
	"fmt"
	"strings"

	"github.com/leolab/leolab/report"
)

// Report builds the study's report: the findings first, then one section
// per figure in the paper's order (the ones that cannot run yet say what
// they wait for), then the differences from the paper.
func Report(d *Data, parts []*Part, meta []report.Meta) (*report.Report, error) {
	onEmu := live(parts)
	r := &report.Report{Title: "leolab reproduce --paper 002: congestion control over LEO paths (seed 002)",
		Subtitle: "Mazilu, Valentine & Parisis, Evaluating Learning Congestion control Schemes for LEO Constellations (arXiv 2510.25498), on leolab's simulator"}
	if onEmu {
		r.Subtitle = "Mazilu, Valentine & Parisis, Evaluating Learning Congestion control Schemes for LEO Constellations (arXiv 2510.25498), live on leolab's emulator with kernel TCP"
	}
	r.Meta = append(r.Meta, meta...)
	runs := 0
	for _, p := range parts {
		runs += len(p.Runs)
		r.Meta = append(r.Meta, report.Meta{Key: p.Campaign.Name, Value: fmt.Sprintf("%s: %d runs (%d seeds × %v)", p.File, len(p.Runs), len(p.Campaign.Seeds), p.Campaign.Duration)})
	}
	var sections []report.Section
	built := map[string]bool{}
	for _, p := range parts {
		for _, f := range p.Figures {
			sec, err := f.build(d, p)
			if err != nil {
				return nil, fmt.Errorf("paper002: %s: %w", f.ID, err)
			}
			built[f.ID] = true
			sections = append(sections, sec)
		}
	}
	// Findings come first but use every figure's numbers.
	r.Sections = append(r.Sections, d.findingsSection(onEmu))
	if onEmu {
		checks, err := d.LiveChecks(parts)
		if err != nil {
			return nil, err
		}
		r.Sections = append(r.Sections, d.liveSection(parts, checks))
	}
	order := map[string]int{}
	for i, f := range Figures() {
		order[f.ID] = i
	}
	byID := map[string]report.Section{}
	for i, p := range allFigures(parts) {
		byID[p.ID] = sections[i]
	}
	for _, f := range Figures() {
		switch {
		case built[f.ID]:
			r.Sections = append(r.Sections, byID[f.ID])
		case f.Needs != "":
			r.Sections = append(r.Sections, report.Section{Title: f.Title, Text: []string{"Paper: " + f.Paper, "Not run here: " + f.Needs + "."}})
		case onEmu && f.SimOnly != "":
			r.Sections = append(r.Sections, report.Section{Title: f.Title, Text: []string{"Paper: " + f.Paper, "Sim only: " + f.SimOnly + " (run it with --engine sim)."}})
		}
	}
	r.Sections = append(r.Sections, differences(onEmu))
	return r, nil
}

func allFigures(parts []*Part) []*Figure {
	var out []*Figure
	for _, p := range parts {
		out = append(out, p.Figures...)
	}
	return out
}

// differences is what differs from the paper's setup, stated once.
func differences(onEmu bool) report.Section {
	engine := "Engine: leolab's"
	if onEmu {
		engine = "Engine (the figures that ran live): the Linux kernel's CUBIC and BBR v1 between network namespaces, through leolab's link models in its userspace emulator (not Mininet's netem and LeoEM's tc scripts); there are no SaTCP, BBRv3, Vivace, Orca, Astraea or Sage runs. Engine (the sim-only figures, in a study on sim): leolab's"
	}
	return report.Section{Title: "Differences from the paper", Text: []string{
		engine + " packet-level simulator with its own implementations of CUBIC, SaTCP, BBRv3, PCC Vivace and Orca, not Linux kernels in Mininet and LeoEM; the LeoEM path file (San Diego → New York, bent pipe) is replayed second by second with LeoEM's handover interruptions and prediction-error distribution.",
		"Schemes: " + learnedNote + " Finding 3 is judged on Vivace and Orca, each against BBRv3 and CUBIC; Orca runs on the LeoEM-path (Figs. 1, 2), step (Figs. 3, 4) and random-loss campaigns.",
		"Micro-benchmark parameters (rates, buffer sizes, step sizes and times) are not in the seed's text; ours are stated in each campaign file (" + CampaignDir + "/*.yaml) and are one BDP of drop-tail buffer at 100 Mbit/s unless a figure says otherwise.",
		"Figures 7, 9(b) and 8 run on leolab's topologies (links in series, per-flow paths, moves). The seed gives the parking lot's shape and Fig. 8's RTTs and move times, not the rates: ours (hop1–3 at 20/40/60 Mbit/s, 20 ms each; a 50 Mbit/s bottleneck behind 20 and 50 ms paths) are in the campaign files and give the parking lot a closed-form max–min allocation (10, 10, 30, 50 Mbit/s). There, normalised aggregate goodput is over that allocation's sum (100 Mbit/s) and Jain's index is over each flow's goodput divided by its max–min share (Jain, Chiu & Hawe 1984), 1 at the max–min allocation; the raw index is in the tables too.",
		runsNote(onEmu) + "Runs of a deterministic simulator differ only through their seed: flow starts jittered by up to 50 ms (start_jitter), the randomised parts of BBRv3, Vivace, RED and SFQ, and LeoEM's handover prediction error. The error bars are over that variation, which is smaller than a testbed's.",
		"Metric definitions (the seed gives plots, not formulas): goodput ratio = min/max of the two flows' mean goodputs; normalised aggregate goodput = Σ goodput / bottleneck rate; delay inflation = mean smoothed RTT / base (propagation) RTT; " + strings.TrimSpace("Jain's index (Σx)²/(n·Σx²)") + ".",
	}}
}

// runsNote adds, on the emulator, what else makes runs differ.
func runsNote(onEmu bool) string {
	if !onEmu {
		return ""
	}
	return "Live runs differ also by the host: the kernel's timing, the pump's release error and its gaps off the CPU (the checks section lists each run's longest). "
}
