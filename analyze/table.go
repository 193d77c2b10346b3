package analyze

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/leolab/leolab/report"
)

// TableName is the file stem of the metrics table's CSV in the report
// directory.
const TableName = "metrics"

// column is one column of the metrics table: one schema for the text table,
// the CSV and the HTML report. Exactly one of str, num, cnt is set, matching
// Kind; num returns NaN for a missing value.
type column struct {
	report.Column
	inText bool   // shown in the text table (group and meta head each block there)
	short  string // heading in the text table
	str    func(*FlowMetrics) string
	num    func(*FlowMetrics) float64
	cnt    func(*FlowMetrics) int64
}

// missing maps the "0 = unknown" of optional figures to NaN.
func missing(v float64) float64 {
	if v == 0 {
		return math.NaN()
	}
	return v
}

func textCol(key, title string, inText bool, f func(*FlowMetrics) string) column {
	return column{Column: report.Column{Key: key, Title: title, Kind: report.Text}, inText: inText, short: title, str: f}
}

func numCol(key, title, unit, short string, digits int, f func(*FlowMetrics) float64) column {
	return column{Column: report.Column{Key: key, Title: title, Unit: unit, Kind: report.Float, Digits: digits},
		inText: true, short: short, num: f}
}

func cntCol(key, title, unit, short string, f func(*FlowMetrics) int64) column {
	return column{Column: report.Column{Key: key, Title: title, Unit: unit, Kind: report.Int}, inText: true, short: short, cnt: f}
}

// columns is the metrics table's schema.
func columns() []column {
	return []column{
		textCol("group", "group", false, func(m *FlowMetrics) string { return m.Group }),
		textCol("label", "flow", true, func(m *FlowMetrics) string { return m.Label }),
		textCol("cca", "CCA", true, func(m *FlowMetrics) string { return m.Meta.CCA }),
		textCol("city", "city", false, func(m *FlowMetrics) string { return m.Meta.City }),
		textCol("direction", "direction", false, func(m *FlowMetrics) string { return m.Meta.Direction }),
		textCol("kind", "kind", false, func(m *FlowMetrics) string { return m.Meta.Kind }),
		textCol("from", "from", false, func(m *FlowMetrics) string { return m.From }),
		cntCol("bytes", "bytes", "B", "bytes", func(m *FlowMetrics) int64 { return m.Bytes }),
		numCol("duration_s", "duration", "s", "s", 1, func(m *FlowMetrics) float64 { return m.DurationS }),
		numCol("throughput_mbps", "throughput", "Mbit/s", "Mbit/s", 2, func(m *FlowMetrics) float64 { return m.ThroughputMbps }),
		cntCol("retransmits", "retransmits", "", "retrans", func(m *FlowMetrics) int64 { return m.Retransmits }),
		numCol("retrans_per_gb", "retransmits", "per GB", "retrans/GB", 0, func(m *FlowMetrics) float64 { return m.RetransPerGB }),
		numCol("min_rtt_ms", "min RTT", "ms", "min RTT ms", 2, func(m *FlowMetrics) float64 { return missing(m.MinRTTMs) }),
		numCol("mean_rtt_ms", "mean RTT", "ms", "mean RTT ms", 2, func(m *FlowMetrics) float64 { return missing(m.MeanRTTMs) }),
		numCol("p95_rtt_ms", "p95 RTT", "ms", "p95 RTT ms", 2, func(m *FlowMetrics) float64 { return missing(m.P95RTTMs) }),
		numCol("rtt_inflation", "RTT inflation", "mean/min", "RTT infl.", 3, func(m *FlowMetrics) float64 { return missing(m.RTTInflation) }),
		numCol("share", "share", "of ΣT", "share", 3, func(m *FlowMetrics) float64 { return missing(m.Share) }),
		numCol("fair_share_mbps", "fair share", "Mbit/s", "fair Mbit/s", 2, func(m *FlowMetrics) float64 { return missing(m.FairShareMbps) }),
		numCol("queue_pkts", "M/G/1 queue", "packets", "queue pkts", 1, func(m *FlowMetrics) float64 { return missing(m.QueuePkts) }),
		numCol("peak_retrans_s", "retransmit peak", "s of slot", "peak s", 0, func(m *FlowMetrics) float64 {
			if m.PeakRetransS < 0 {
				return math.NaN()
			}
			return float64(m.PeakRetransS)
		}),
	}
}

func (c column) cell(m *FlowMetrics) report.Cell {
	switch c.Kind {
	case report.Float:
		return report.Num(c.num(m))
	case report.Int:
		return report.Count(c.cnt(m))
	}
	return report.Str(c.str(m))
}

// text formats the value for the text table: the column's decimals, "-"
// for a missing value.
func (c column) text(m *FlowMetrics) string {
	switch c.Kind {
	case report.Float:
		v := c.num(m)
		if math.IsNaN(v) {
			return "-"
		}
		return strconv.FormatFloat(v, 'f', c.Digits, 64)
	case report.Int:
		return strconv.FormatInt(c.cnt(m), 10)
	}
	if s := c.str(m); s != "" {
		return s
	}
	return "-"
}

// Table is the metrics table, one row per flow, for the report and its CSV.
func (a *Analysis) Table() report.Table {
	cols := columns()
	t := report.Table{Title: "Per-flow metrics", Name: TableName}
	for _, c := range cols {
		t.Columns = append(t.Columns, c.Column)
	}
	for i := range a.Flows {
		row := make([]report.Cell, len(cols))
		for k, c := range cols {
			row[k] = c.cell(&a.Flows[i])
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// WriteText prints the metrics table for a terminal: one block per group
// with its flows, and the fairness line of a concurrent group.
func (a *Analysis) WriteText(w io.Writer) error {
	var cols []column
	for _, c := range columns() {
		if c.inText {
			cols = append(cols, c)
		}
	}
	for gi, g := range a.Groups {
		if gi > 0 {
			fmt.Fprintln(w)
		}
		kind := "dedicated flows"
		if g.Concurrent {
			kind = "concurrent flows"
		}
		fmt.Fprintf(w, "%s  (%d %s)\n", g.Group, g.N, kind)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
		hdr := make([]string, len(cols))
		for k, c := range cols {
			hdr[k] = c.short
		}
		fmt.Fprintln(tw, strings.Join(hdr, "\t")+"\t")
		for _, i := range g.flowsIndex {
			row := make([]string, len(cols))
			for k, c := range cols {
				row[k] = c.text(&a.Flows[i])
			}
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
		if g.Concurrent {
			fmt.Fprintf(w, "fairness: Jain %.3f  max-min %.3f  PF %.3f  total %.2f Mbit/s  fair share %.2f Mbit/s\n",
				g.Jain, g.MinMax, g.PF, g.TotalMbps, g.TotalMbps/float64(g.N))
		}
	}
	return nil
}
