package campaign

import (
	"fmt"
	"strings"

	"github.com/leolab/leolab/report"
)

// FlowRow is one flow of one stored run: the flows table's row and the CSV
// export's row. The run's axis values are repeated in it so that the table
// reads on its own.
type FlowRow struct {
	RunID, Kind, Direction, City  string
	Seed                          int64
	FlowID                        int64
	Label                         string // the cca axis value (e.g. a dataset name such as ccp)
	CCA                           string // the registry name the flow ran
	StartS, ThroughputMbps        float64
	BytesAcked, Retransmits       int64
	RetransPerGB                  float64
	MinRTTMs, MeanRTTMs, P95RTTMs float64
	RTTInflation                  float64
	RTOs                          int64
}

// flowColumn is one column of the flows table: its SQL and CSV key, title,
// unit and kind (report.Column) and where it lives in a FlowRow.
type flowColumn struct {
	report.Column
	ptr func(*FlowRow) any // *string, *int64 or *float64 by Kind
}

// FlowColumns is the one schema of the flows table: the SQLite table, its
// INSERT and SELECT and the CSV header are all generated from it.
func flowColumns() []flowColumn {
	txt := func(key string, p func(*FlowRow) any) flowColumn {
		return flowColumn{report.Column{Key: key, Title: key, Kind: report.Text}, p}
	}
	num := func(key, unit string, digits int, p func(*FlowRow) any) flowColumn {
		return flowColumn{report.Column{Key: key, Title: key, Unit: unit, Kind: report.Float, Digits: digits}, p}
	}
	cnt := func(key string, p func(*FlowRow) any) flowColumn {
		return flowColumn{report.Column{Key: key, Title: key, Kind: report.Int}, p}
	}
	return []flowColumn{
		txt("run_id", func(r *FlowRow) any { return &r.RunID }),
		txt("kind", func(r *FlowRow) any { return &r.Kind }),
		txt("direction", func(r *FlowRow) any { return &r.Direction }),
		txt("city", func(r *FlowRow) any { return &r.City }),
		cnt("seed", func(r *FlowRow) any { return &r.Seed }),
		cnt("flow_id", func(r *FlowRow) any { return &r.FlowID }),
		txt("label", func(r *FlowRow) any { return &r.Label }),
		txt("cca", func(r *FlowRow) any { return &r.CCA }),
		num("start_s", "s", 1, func(r *FlowRow) any { return &r.StartS }),
		num("throughput_mbps", "Mbit/s", 2, func(r *FlowRow) any { return &r.ThroughputMbps }),
		cnt("bytes_acked", func(r *FlowRow) any { return &r.BytesAcked }),
		cnt("retransmits", func(r *FlowRow) any { return &r.Retransmits }),
		num("retrans_per_gb", "per GB", 0, func(r *FlowRow) any { return &r.RetransPerGB }),
		num("min_rtt_ms", "ms", 2, func(r *FlowRow) any { return &r.MinRTTMs }),
		num("mean_rtt_ms", "ms", 2, func(r *FlowRow) any { return &r.MeanRTTMs }),
		num("p95_rtt_ms", "ms", 2, func(r *FlowRow) any { return &r.P95RTTMs }),
		num("rtt_inflation", "mean/min", 3, func(r *FlowRow) any { return &r.RTTInflation }),
		cnt("rtos", func(r *FlowRow) any { return &r.RTOs }),
	}
}

func sqlType(k report.Kind) string {
	switch k {
	case report.Float:
		return "REAL"
	case report.Int:
		return "INTEGER"
	}
	return "TEXT"
}

// flowsDDL is the CREATE TABLE of the flows table.
func flowsDDL() string {
	var cols []string
	for _, c := range flowColumns() {
		cols = append(cols, c.Key+" "+sqlType(c.Kind)+" NOT NULL")
	}
	cols = append(cols, "PRIMARY KEY (run_id, flow_id)")
	return "CREATE TABLE IF NOT EXISTS flows (\n  " + strings.Join(cols, ",\n  ") + "\n)"
}

func flowKeys() string {
	var keys []string
	for _, c := range flowColumns() {
		keys = append(keys, c.Key)
	}
	return strings.Join(keys, ", ")
}

// flowsInsert is the INSERT of one flows row.
func flowsInsert() string {
	n := len(flowColumns())
	return fmt.Sprintf("INSERT INTO flows (%s) VALUES (%s)", flowKeys(), strings.TrimSuffix(strings.Repeat("?, ", n), ", "))
}

// values returns the row's values in schema order (for INSERT).
func (r *FlowRow) values() []any {
	cols := flowColumns()
	out := make([]any, len(cols))
	for i, c := range cols {
		switch p := c.ptr(r).(type) {
		case *string:
			out[i] = *p
		case *int64:
			out[i] = *p
		case *float64:
			out[i] = *p
		}
	}
	return out
}

// targets returns pointers into the row in schema order (for Scan).
func (r *FlowRow) targets() []any {
	cols := flowColumns()
	out := make([]any, len(cols))
	for i, c := range cols {
		out[i] = c.ptr(r)
	}
	return out
}

// cells returns the row as report cells in schema order (for CSV).
func (r *FlowRow) cells() []report.Cell {
	cols := flowColumns()
	out := make([]report.Cell, len(cols))
	for i, c := range cols {
		switch p := c.ptr(r).(type) {
		case *string:
			out[i] = report.Str(*p)
		case *int64:
			out[i] = report.Count(*p)
		case *float64:
			out[i] = report.Num(*p)
		}
	}
	return out
}

// FlowTable is the flows of a campaign as a report table (schema above).
func FlowTable(title string, rows []FlowRow) report.Table {
	t := report.Table{Title: title, Name: "flows"}
	for _, c := range flowColumns() {
		t.Columns = append(t.Columns, c.Column)
	}
	for i := range rows {
		t.Rows = append(t.Rows, rows[i].cells())
	}
	return t
}
