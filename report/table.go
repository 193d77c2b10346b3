package report

import (
	"fmt"
	"math"
	"strconv"
)

// Kind is the type of a table column.
type Kind uint8

const (
	// Text is a string column.
	Text Kind = iota
	// Float is a real-valued column; NaN means "missing".
	Float
	// Int is an integer column.
	Int
)

func (k Kind) String() string {
	switch k {
	case Text:
		return "text"
	case Float:
		return "float"
	case Int:
		return "int"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Column is one column of a table's schema. The CSV header is generated
// from the keys and the HTML header from the titles and units, so the two
// can never disagree.
type Column struct {
	Key    string // CSV header: snake_case, unit suffix included, e.g. "throughput_mbps"
	Title  string // HTML header, e.g. "throughput"
	Unit   string // HTML unit, e.g. "Mbit/s"; empty for none
	Kind   Kind
	Digits int // decimals shown in HTML for Float columns (CSV keeps full precision)
}

// Cell is one value of a table. Build cells with Str, Num and Count.
type Cell struct {
	kind Kind
	s    string
	f    float64
	i    int64
}

// Str is a text cell.
func Str(s string) Cell { return Cell{kind: Text, s: s} }

// Num is a real-valued cell; NaN is a missing value.
func Num(f float64) Cell { return Cell{kind: Float, f: f} }

// Count is an integer cell.
func Count(i int64) Cell { return Cell{kind: Int, i: i} }

// Kind is the cell's type.
func (c Cell) Kind() Kind { return c.kind }

// csv formats the cell for CSV: full precision, empty for a missing value.
func (c Cell) csv() string {
	switch c.kind {
	case Float:
		if math.IsNaN(c.f) {
			return ""
		}
		return strconv.FormatFloat(c.f, 'g', -1, 64)
	case Int:
		return strconv.FormatInt(c.i, 10)
	}
	return c.s
}

// html formats the cell for reading: Float with the column's decimals, an
// en dash for a missing value.
func (c Cell) html(col Column) string {
	if c.kind == Float {
		if math.IsNaN(c.f) {
			return "–"
		}
		return strconv.FormatFloat(c.f, 'f', col.Digits, 64)
	}
	return c.csv()
}

// Table is a titled table with a column schema.
type Table struct {
	Title   string
	Name    string // file stem of its CSV; derived from Title when empty
	Columns []Column
	Rows    [][]Cell
}

// name is the table's file stem.
func (t *Table) name() string {
	if t.Name != "" {
		return t.Name
	}
	return slug(t.Title)
}

// validate checks the schema (non-empty unique snake_case keys) and that
// every row matches it cell by cell.
func (t *Table) validate() error {
	if len(t.Columns) == 0 {
		return fmt.Errorf("table %q: no columns", t.Title)
	}
	seen := map[string]bool{}
	for i, c := range t.Columns {
		if !isWord(c.Key, '_') {
			return fmt.Errorf("table %q: column %d key %q: want [a-z0-9_]+", t.Title, i, c.Key)
		}
		if seen[c.Key] {
			return fmt.Errorf("table %q: column %d key %q repeated", t.Title, i, c.Key)
		}
		seen[c.Key] = true
		if c.Kind > Int {
			return fmt.Errorf("table %q: column %s: unknown kind %v", t.Title, c.Key, c.Kind)
		}
	}
	for r, row := range t.Rows {
		if len(row) != len(t.Columns) {
			return fmt.Errorf("table %q: row %d has %d cells, want %d", t.Title, r, len(row), len(t.Columns))
		}
		for i, cell := range row {
			if cell.kind != t.Columns[i].Kind {
				return fmt.Errorf("table %q: row %d column %s: %v cell in a %v column",
					t.Title, r, t.Columns[i].Key, cell.kind, t.Columns[i].Kind)
			}
		}
	}
	return nil
}

// isWord reports whether s is non-empty and only lower-case ASCII letters,
// digits and sep: a table column key (sep '_') or a figure name (sep '-').
func isWord(s string, sep rune) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == sep) {
			return false
		}
	}
	return true
}

// FlowColumns is the schema of the per-flow metrics table (FlowTable). Keys
// follow the result JSON's names where one exists.
func FlowColumns() []Column {
	return []Column{
		{Key: "group", Title: "group", Kind: Text},
		{Key: "label", Title: "run", Kind: Text},
		{Key: "cca", Title: "CCA", Kind: Text},
		{Key: "city", Title: "city", Kind: Text},
		{Key: "direction", Title: "direction", Kind: Text},
		{Key: "throughput_mbps", Title: "throughput", Unit: "Mbit/s", Kind: Float, Digits: 1},
		{Key: "retrans_per_gb", Title: "retransmissions", Unit: "per GB", Kind: Float, Digits: 0},
		{Key: "rtt_inflation", Title: "RTT inflation", Unit: "mean/min", Kind: Float, Digits: 2},
		{Key: "p95_delay_ms", Title: "p95 delay", Unit: "ms", Kind: Float, Digits: 1},
		{Key: "fair_share_mbps", Title: "fair share", Unit: "Mbit/s", Kind: Float, Digits: 1},
	}
}

// FlowTable is the per-flow metrics table, one row per flow in input order.
func FlowTable(title string, flows []FlowSummary) Table {
	t := Table{Title: title, Columns: FlowColumns()}
	for _, f := range flows {
		t.Rows = append(t.Rows, []Cell{
			Str(f.Group), Str(f.Label), Str(f.CCA), Str(f.City), Str(f.Direction),
			Num(f.ThroughputMbps), Num(f.RetransPerGB), Num(f.RTTInflation), Num(f.P95DelayMs), Num(f.FairShareMbps),
		})
	}
	return t
}
