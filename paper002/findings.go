package paper002

import (
	"fmt"
	"math"
	"strings"

	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
)

// Verdicts on the five findings of seed 002's abstract, from the numbers
// the figures put in Data.Findings. "Holds" needs the difference the
// finding claims with the 95 % intervals apart; "not resolved" is a
// difference of the right sign whose intervals overlap.

// finding is one verdict.
type finding struct {
	claim, verdict, numbers string
}

// cmp compares two estimates: +1 when a's interval lies above b's, -1
// below, 0 when they overlap (or either is missing).
func cmp(a, b metrics.Estimate) int {
	if math.IsNaN(a.Mean) || math.IsNaN(b.Mean) {
		return 0
	}
	ac, bc := a.CI, b.CI
	if math.IsNaN(ac) {
		ac = 0
	}
	if math.IsNaN(bc) {
		bc = 0
	}
	switch {
	case a.Mean-ac > b.Mean+bc:
		return 1
	case a.Mean+ac < b.Mean-bc:
		return -1
	}
	return 0
}

// have reports whether every key has a number.
func (d *Data) have(keys ...string) bool {
	for _, k := range keys {
		if math.IsNaN(d.est(k).Mean) {
			return false
		}
	}
	return true
}

func (d *Data) f(k string, digits int) string { return pm(d.est(k), digits) }

// est is the number under k; a figure that did not run has a NaN mean
// (printed "n/a", and no check's decision), never a zero.
func (d *Data) est(k string) metrics.Estimate {
	if e, ok := d.Findings[k]; ok {
		return e
	}
	return metrics.Estimate{Mean: math.NaN(), CI: math.NaN()}
}

// tally counts the checks that hold (+1) and those that contradict (-1).
func tally(checks []int) (pos, neg int) {
	for _, c := range checks {
		switch {
		case c > 0:
			pos++
		case c < 0:
			neg++
		}
	}
	return pos, neg
}

// verdict names the outcome of checks that each hold (+1), contradict
// (-1) or cannot tell (0).
func verdict(checks ...int) string {
	pos, neg := tally(checks)
	switch {
	case pos == len(checks):
		return "holds here"
	case neg == len(checks):
		return "does not hold here"
	case neg > 0 && pos > 0:
		return "holds in part here"
	case neg > 0:
		return "does not hold here (the rest is not resolved by the intervals)"
	case pos > 0:
		return "holds in part here (the rest is not resolved by the intervals)"
	}
	return "not resolved here (the 95 % intervals overlap)"
}

func (d *Data) findings() []finding {
	var out []finding
	// 1. Handover-aware loss-based schemes reclaim bandwidth at a latency cost.
	if d.have("fig1.goodput.satcp", "fig1.goodput.cubic") {
		out = append(out, finding{
			claim: "(1) Handover-aware loss-based schemes can reclaim bandwidth, but at the cost of increased latency.",
			verdict: verdict(cmp(d.est("fig1.goodput.satcp"), d.est("fig1.goodput.cubic")),
				cmp(d.est("fig1.inflation.satcp"), d.est("fig1.inflation.cubic"))),
			numbers: fmt.Sprintf("On the LeoEM path (Fig. 1) SaTCP moves %s Mbit/s against CUBIC's %s at %s× against %s× the base RTT.",
				d.f("fig1.goodput.satcp", 1), d.f("fig1.goodput.cubic", 1), d.f("fig1.inflation.satcp", 2), d.f("fig1.inflation.cubic", 2)),
		})
	}
	// 2. BBRv3: high throughput, modest delay, slow to react to RTT changes.
	if d.have("fig1.goodput.bbr3", "fig1.goodput.cubic", "fig4.recovery.bbr3", "fig4.recovery.cubic") {
		out = append(out, finding{
			claim: "(2) BBRv3 sustains high throughput with modest delay penalties, yet reacts slowly to abrupt RTT changes.",
			verdict: verdict(-cmp(d.est("fig1.goodput.cubic"), d.est("fig1.goodput.bbr3")),
				cmp(d.est("fig1.inflation.cubic"), d.est("fig1.inflation.bbr3")),
				cmp(d.est("fig4.recovery.bbr3"), d.est("fig4.recovery.cubic"))),
			numbers: fmt.Sprintf("LeoEM path: BBRv3 %s Mbit/s at %s× the base RTT (CUBIC %s Mbit/s at %s×); after the 50 → 200 ms step (Fig. 4) BBRv3 needs %s s to get back to 80 %% of the link, CUBIC %s s. (Throughput counts as held when BBRv3's interval is not below CUBIC's.)",
				d.f("fig1.goodput.bbr3", 1), d.f("fig1.inflation.bbr3", 2), d.f("fig1.goodput.cubic", 1), d.f("fig1.inflation.cubic", 2),
				d.f("fig4.recovery.bbr3", 1), d.f("fig4.recovery.cubic", 1)),
		})
	}
	// 3. RL-based schemes underperform under dynamics, resist random loss
	// (findings_rl.go).
	if f, ok := d.rlFinding(); ok {
		out = append(out, f)
	}
	// 4. Fairness degrades with RTT asymmetry (and multiple bottlenecks).
	if d.have("fig5.ratio.cubic.50", "fig5.ratio.cubic.200") {
		var checks []int
		var parts []string
		for _, cca := range []string{"cubic", "bbr3", "pcc"} {
			lo, hi := "fig5.ratio."+cca+".50", "fig5.ratio."+cca+".200"
			if !d.have(lo, hi) {
				continue
			}
			if cca != "pcc" {
				checks = append(checks, cmp(d.est(lo), d.est(hi)))
			}
			parts = append(parts, fmt.Sprintf("%s %s at 50 ms → %s at 200 ms", schemeName(cca), d.f(lo, 2), d.f(hi, 2)))
		}
		numbers := "Goodput ratio of the two flows on drop-tail (Fig. 5), second flow's RTT: " + strings.Join(parts, "; ") + "."
		half := "; the multiple-bottleneck half is not tested (Fig. 7 not run)"
		mb, mbNumbers, lot := d.multipleBottlenecks()
		if lot {
			half = ""
		}
		if mbNumbers != "" {
			checks = append(checks, mb...)
			numbers += " " + mbNumbers
		}
		out = append(out, finding{
			claim:   "(4) Fairness degrades significantly with RTT asymmetry and multiple bottlenecks, especially in human-designed schemes.",
			verdict: verdict(checks...) + half,
			numbers: numbers + " (Verdict on CUBIC and BBRv3, the human-designed schemes.)",
		})
	}
	// 5. AQM restores fairness and boosts efficiency.
	if d.have("fig9a.ratio.cubic.200", "fig5.ratio.cubic.200", "fig9c.jain.cubic.droptail", "fig9c.jain.cubic.fq_codel") {
		var checks []int
		var parts []string
		for _, cca := range []string{"cubic", "bbr3", "pcc"} {
			if !d.have("fig9a.ratio."+cca+".200", "fig5.ratio."+cca+".200") {
				continue
			}
			checks = append(checks, cmp(d.est("fig9a.ratio."+cca+".200"), d.est("fig5.ratio."+cca+".200")))
			parts = append(parts, fmt.Sprintf("%s %s with SFQ against %s drop-tail", schemeName(cca), d.f("fig9a.ratio."+cca+".200", 2), d.f("fig5.ratio."+cca+".200", 2)))
		}
		checks = append(checks, cmp(d.est("fig9c.agg.cubic.fq_codel"), d.est("fig9c.agg.cubic.droptail")))
		var lot []string
		for _, cca := range []string{"cubic", "bbr3", "pcc"} {
			sfq, dt := "fig9b.jainmm."+cca, "fig7.jainmm."+cca
			if !d.have(sfq, dt) {
				continue
			}
			checks = append(checks, cmp(d.est(sfq), d.est(dt)))
			lot = append(lot, fmt.Sprintf("%s %s with SFQ against %s drop-tail (long flow %s against %s Mbit/s)", schemeName(cca),
				d.f(sfq, 3), d.f(dt, 3), d.f("fig9b.long."+cca, 2), d.f("fig7.long."+cca, 2)))
		}
		lotText := ""
		if len(lot) > 0 {
			lotText = " Parking lot, Jain's index over max–min shares (Fig. 9b against Fig. 7): " + strings.Join(lot, "; ") + "."
		}
		out = append(out, finding{
			claim:   "(5) AQM at bottlenecks can restore fairness and boost efficiency.",
			verdict: verdict(checks...),
			numbers: fmt.Sprintf("Goodput ratio of the 50 ms and 200 ms flows (Fig. 9a against Fig. 5): %s. Five CUBIC flows (Fig. 9c): FQ-CoDel aggregate %s of the link at %s× the base RTT, Jain %s; drop-tail %s at %s×, Jain %s.",
				strings.Join(parts, "; "), d.f("fig9c.agg.cubic.fq_codel", 3), d.f("fig9c.infl.cubic.fq_codel", 2), d.f("fig9c.jain.cubic.fq_codel", 3),
				d.f("fig9c.agg.cubic.droptail", 3), d.f("fig9c.infl.cubic.droptail", 2), d.f("fig9c.jain.cubic.droptail", 3)) + lotText,
		})
	}
	if f, ok := d.aqmHalf(); ok {
		out = append(out, f)
	}
	return out
}

// aqmHalf is finding 5 judged on Fig. 9(c) alone, when Figs. 5 and 9(a)
// did not run (a live study: they are sim only): five CUBIC flows get
// more of the link, at less delay, under FQ-CoDel than under drop-tail.
func (d *Data) aqmHalf() (finding, bool) {
	const fq, dt = "fig9c.agg.cubic.fq_codel", "fig9c.agg.cubic.droptail"
	if d.have("fig9a.ratio.cubic.200", "fig5.ratio.cubic.200") || !d.have(fq, dt, "fig9c.infl.cubic.fq_codel", "fig9c.infl.cubic.droptail") {
		return finding{}, false
	}
	return finding{
		claim: "(5) AQM at bottlenecks can restore fairness and boost efficiency (here: Fig. 9(c)'s five CUBIC flows only; the RTT-asymmetry half needs Figs. 5 and 9(a)).",
		verdict: verdict(cmp(d.est(fq), d.est(dt)),
			cmp(d.est("fig9c.infl.cubic.droptail"), d.est("fig9c.infl.cubic.fq_codel")),
			cmp(d.est("fig9c.jain.cubic.fq_codel"), d.est("fig9c.jain.cubic.droptail"))),
		numbers: fmt.Sprintf("Five CUBIC flows (Fig. 9c): FQ-CoDel aggregate %s of the link at %s× the base RTT, Jain %s; drop-tail %s at %s×, Jain %s.",
			d.f(fq, 3), d.f("fig9c.infl.cubic.fq_codel", 2), d.f("fig9c.jain.cubic.fq_codel", 3),
			d.f(dt, 3), d.f("fig9c.infl.cubic.droptail", 2), d.f("fig9c.jain.cubic.droptail", 3)),
	}, true
}

// findingsSection states each finding, whether it holds here, and why.
func (d *Data) findingsSection(onEmu bool) report.Section {
	s := report.Section{Title: "The paper's five findings, here"}
	fs := d.findings()
	if onEmu {
		s.Text = append(s.Text, "Live, findings 1–3 cannot be judged: they compare SaTCP, BBRv3, Vivace and Orca with CUBIC, and the kernel has none of them; "+
			"finding 4 rests on the RTT-asymmetry and parking-lot figures, which run on sim only; finding 5 is judged on its AQM half (Fig. 9(c)) when that ran.")
	}
	if len(fs) == 0 {
		s.Text = append(s.Text, "The figures the findings rest on were not run (a restricted study).")
		return s
	}
	s.Text = append(s.Text, "“Holds” needs the difference the finding claims with the two 95 % confidence intervals apart; overlapping intervals do not resolve it.")
	t := report.Table{Title: "Findings", Name: "findings", Columns: []report.Column{
		{Key: "finding", Title: "finding (seed 002)", Kind: report.Text},
		{Key: "verdict", Title: "here", Kind: report.Text},
		{Key: "numbers", Title: "numbers (mean ± 95 % CI)", Kind: report.Text},
	}}
	for _, f := range fs {
		s.Text = append(s.Text, f.claim+" — "+strings.ToUpper(f.verdict[:1])+f.verdict[1:]+". "+f.numbers)
		t.Rows = append(t.Rows, []report.Cell{report.Str(f.claim), report.Str(f.verdict), report.Str(f.numbers)})
	}
	s.Tables = append(s.Tables, t)
	return s
}

// Verdicts are the findings' claims and verdicts, for a summary on the
// terminal; call it after Report, which computes the numbers.
func (d *Data) Verdicts() [][2]string {
	var out [][2]string
	for _, f := range d.findings() {
		out = append(out, [2]string{f.claim, f.verdict})
	}
	return out
}

// multipleBottlenecks is finding 4's second half and what the topology
// figures add to the first: on the drop-tail parking lot (Fig. 7) a
// human-designed scheme's long flow gets less than its max–min share (10
// Mbit/s, interval below it); on Fig. 8's bottleneck the four flows' Jain
// index is lower with two on the 50 ms path (5–100 s) than with all four on
// the 20 ms one (100–200 s): RTT asymmetry, whichever way it tilts (CUBIC
// favours the short flows, BBRv3 the long ones). Vivace's numbers are stated, not judged, as in
// the first half. lot reports whether Fig. 7 was run.
func (d *Data) multipleBottlenecks() (checks []int, numbers string, lot bool) {
	var lots, moved []string
	share := metrics.Estimate{Mean: parkingLotMaxMin[0]}
	for _, cca := range []string{"cubic", "bbr3", "pcc"} {
		if k := "fig7.long." + cca; d.have(k, "fig7.jainmm."+cca) {
			if cca != "pcc" {
				checks = append(checks, cmp(share, d.est(k)))
			}
			lots = append(lots, fmt.Sprintf("%s long flow %s Mbit/s, Jain over shares %s", schemeName(cca), d.f(k, 2), d.f("fig7.jainmm."+cca, 3)))
		}
		if k := "fig8.moved." + cca + ".1"; d.have(k, "fig8.jain."+cca+".1", "fig8.jain."+cca+".2") {
			if cca != "pcc" {
				checks = append(checks, cmp(d.est("fig8.jain."+cca+".2"), d.est("fig8.jain."+cca+".1")))
			}
			moved = append(moved, fmt.Sprintf("%s 50 ms / 20 ms pair %s, Jain %s (all on 20 ms: %s)", schemeName(cca),
				d.f(k, 2), d.f("fig8.jain."+cca+".1", 3), d.f("fig8.jain."+cca+".2", 3)))
		}
	}
	var text []string
	if len(lots) > 0 {
		text = append(text, "Drop-tail parking lot of three bottlenecks (Fig. 7; the long flow's max–min share is 10 Mbit/s): "+strings.Join(lots, "; ")+".")
	}
	if len(moved) > 0 {
		text = append(text, "RTT asymmetry on a shared bottleneck behind 20 and 50 ms paths, before the move (Fig. 8, 5–100 s): "+strings.Join(moved, "; ")+".")
	}
	return checks, strings.Join(text, " "), len(lots) > 0
}
