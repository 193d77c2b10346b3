package paper002

import (
	"regexp"
	"strings"
	"testing"

	"github.com/leolab/leolab/metrics"
)

// findingKeys are every number the five findings read.
var findingKeys = []string{
	"fig1.goodput.satcp", "fig1.goodput.cubic", "fig1.goodput.bbr3", "fig1.goodput.pcc",
	"fig1.inflation.satcp", "fig1.inflation.cubic", "fig1.inflation.bbr3",
	"fig3.util.bbr3", "fig3.util.pcc", "fig4.recovery.bbr3", "fig4.recovery.cubic",
	"loss.goodput.pcc.0.01", "loss.goodput.cubic.0.01", "loss.goodput.pcc.0", "loss.goodput.cubic.0",
	"fig9c.agg.cubic.fq_codel", "fig9c.agg.cubic.droptail", "fig9c.infl.cubic.fq_codel", "fig9c.infl.cubic.droptail",
	"fig9c.jain.cubic.fq_codel", "fig9c.jain.cubic.droptail",
}

// Acceptance 5 of issue 19: with every figure run, the report states all
// five findings, each with its numbers as mean ± 95 % interval.
func TestFiveFindingsWithErrorBars(t *testing.T) {
	d := &Data{Findings: map[string]metrics.Estimate{}}
	for _, k := range findingKeys {
		d.Findings[k] = metrics.Estimate{Mean: 1.5, CI: 0.25, N: 10}
	}
	for _, cca := range []string{"cubic", "bbr3", "pcc"} {
		for _, k := range []string{"fig5.ratio." + cca + ".50", "fig5.ratio." + cca + ".200", "fig9a.ratio." + cca + ".200",
			"fig7.long." + cca, "fig7.jainmm." + cca, "fig9b.long." + cca, "fig9b.jainmm." + cca,
			"fig8.moved." + cca + ".1", "fig8.jain." + cca + ".1", "fig8.jain." + cca + ".2"} {
			d.Findings[k] = metrics.Estimate{Mean: 1.5, CI: 0.25, N: 10}
		}
	}
	fs := d.findings()
	if len(fs) != 5 {
		t.Fatalf("%d findings, want 5", len(fs))
	}
	num := regexp.MustCompile(`\d+\.\d+ ± \d+\.\d+`)
	for i, f := range fs {
		if !strings.HasPrefix(f.claim, "("+string(rune('1'+i))+")") {
			t.Errorf("finding %d: claim %q", i+1, f.claim)
		}
		if len(num.FindAllString(f.numbers, -1)) < 2 || strings.Contains(f.numbers, "n/a") {
			t.Errorf("finding %d: numbers without error bars: %q", i+1, f.numbers)
		}
	}
}

// A number a finding prints but whose figure did not run is "n/a", never
// a zero with a zero interval, and it does not decide the verdict: here
// Fig. 1 ran for SaTCP and CUBIC but their delay inflation is missing.
func TestFindingMissingNumberIsNotZero(t *testing.T) {
	d := &Data{Findings: map[string]metrics.Estimate{
		"fig1.goodput.satcp":   {Mean: 120, CI: 2, N: 10},
		"fig1.goodput.cubic":   {Mean: 100, CI: 2, N: 10},
		"fig1.inflation.cubic": {Mean: 2, CI: 0.1, N: 10},
	}}
	fs := d.findings()
	if len(fs) != 1 {
		t.Fatalf("%d findings, want 1", len(fs))
	}
	if strings.Contains(fs[0].numbers, "0.00 ± 0.00") || !strings.Contains(fs[0].numbers, "n/a") {
		t.Errorf("missing inflation shown as %q", fs[0].numbers)
	}
	if fs[0].verdict != "holds in part here (the rest is not resolved by the intervals)" {
		t.Errorf("verdict %q: a missing number must leave its check unresolved", fs[0].verdict)
	}
}
