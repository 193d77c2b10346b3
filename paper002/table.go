package paper002

import (
	"fmt"
	"math"
	"strings"

	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
)

// col is one estimated quantity of a figure's table: its mean and the half
// width of its 95 % interval, as two columns.
type col struct {
	key, title, unit string
	digits           int
	get              func(*cell) metrics.Estimate
}

// estimateTable lays out one row per cell: the cca, the sweep point, the
// number of runs, then each quantity's mean and ± half-width.
func estimateTable(title, name string, cells []*cell, keys []string, cols []col) report.Table {
	t := report.Table{Title: title, Name: name}
	t.Columns = append(t.Columns, report.Column{Key: "cca", Title: "scheme", Kind: report.Text})
	for _, k := range keys {
		t.Columns = append(t.Columns, report.Column{Key: slug(k), Title: k, Kind: report.Text})
	}
	t.Columns = append(t.Columns, report.Column{Key: "runs", Title: "runs", Kind: report.Int})
	for _, c := range cols {
		t.Columns = append(t.Columns,
			report.Column{Key: c.key, Title: c.title, Unit: c.unit, Kind: report.Float, Digits: c.digits},
			report.Column{Key: c.key + "_ci95", Title: "± 95 % CI", Unit: c.unit, Kind: report.Float, Digits: c.digits})
	}
	for _, ce := range cells {
		row := []report.Cell{report.Str(schemeName(ce.CCA))}
		for _, k := range keys {
			row = append(row, report.Str(ce.value(k)))
		}
		row = append(row, report.Count(int64(len(ce.Runs))))
		for _, c := range cols {
			e := c.get(ce)
			row = append(row, report.Num(e.Mean), report.Num(e.CI))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func slug(s string) string {
	return strings.NewReplacer(".", "_", "[", "_", "]", "").Replace(s)
}

// schemeName is the paper's name of one of our controllers.
func schemeName(cca string) string {
	switch cca {
	case "cubic":
		return "CUBIC"
	case "satcp":
		return "SaTCP"
	case "bbr3", "bbr":
		return "BBRv3"
	case "bbr1":
		return "BBRv1"
	case "pcc", "vivace":
		return "Vivace (pcc)"
	case "orca":
		return "Orca (retrained)"
	case "astraea":
		return "Astraea (retrained)"
	case "sage":
		return "Sage (retrained)"
	}
	return cca
}

// pm formats an estimate as "m ± ci" (or "m" for one run).
func pm(e metrics.Estimate, digits int) string {
	if math.IsNaN(e.Mean) {
		return "n/a"
	}
	if math.IsNaN(e.CI) {
		return fmt.Sprintf("%.*f (1 run)", digits, e.Mean)
	}
	return fmt.Sprintf("%.*f ± %.*f", digits, e.Mean, digits, e.CI)
}

// ciNote is the sentence every figure's caption ends with.
func ciNote(runs int) string {
	return fmt.Sprintf("Means over %d runs per point; error bars and ± are the two-sided 95 %% confidence interval of the mean, "+
		"t-based (t_{0.975,n−1}·s/√n); runs differ by their seed (flow starts jittered by up to 50 ms, randomised controllers and qdiscs).", runs)
}

// runsPer is the number of runs per point of a part.
func runsPer(p *Part) int { return len(p.Campaign.Seeds) }
