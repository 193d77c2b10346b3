package closedloop

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

// CSVHeader lists the summary CSV's columns.
var CSVHeader = []string{"city", "direction", "seeds", "duration_s", "arm", "metric", "n", "mean", "ci95",
	"ref", "diff_vs_ref", "diff_ci95", "diff_pct", "distinct"}

// WriteCSV writes one row per arm and metric.
func WriteCSV(w io.Writer, p *Plan, stats []Stat) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	st := append([]Stat(nil), stats...)
	sortStats(st)
	for _, s := range st {
		rec := []string{p.City, p.Direction, strconv.Itoa(p.Seeds), f(p.Duration.Seconds()), s.Arm, s.Metric,
			strconv.Itoa(s.Value.N), f(s.Value.Mean), f(s.Value.CI), p.Ref, f(s.Diff.Mean), f(s.Diff.CI), f(s.DiffPct),
			strconv.FormatBool(s.Distinct())}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteTable prints per arm the throughput, retransmissions per GB and
// mean RTT with their 95 % CIs, and each one's paired difference from
// the reference arm (marked * where its CI excludes 0).
func WriteTable(w io.Writer, p *Plan, stats []Stat) error {
	st := append([]Stat(nil), stats...)
	sortStats(st)
	fmt.Fprintf(w, "closed loop: %s %s, %d seeds × %v, paired by seed; mean ± 95%% CI, Δ vs %s (paired) [* CI excludes 0]\n",
		p.City, p.Direction, p.Seeds, p.Duration, p.Ref)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "arm\tmetric\tmean ± CI\tΔ vs %s ± CI\tΔ %%\n", p.Ref)
	for _, s := range st {
		if s.Metric == "retransmits" || s.Metric == "rtt_inflation" {
			continue // in the CSV; the table keeps issue 21's three
		}
		mark := ""
		if s.Distinct() {
			mark = " *"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.2f ± %.2f\t%+.2f ± %.2f%s\t%+.1f\n", s.Arm, s.Metric, s.Value.Mean, s.Value.CI,
			s.Diff.Mean, s.Diff.CI, mark, s.DiffPct)
	}
	return tw.Flush()
}
