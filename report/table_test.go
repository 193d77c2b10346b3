package report

import (
	"math"
	"strings"
	"testing"
)

func TestTableValidate(t *testing.T) {
	cols := []Column{{Key: "cca", Kind: Text}, {Key: "throughput_mbps", Kind: Float}, {Key: "retransmits", Kind: Int}}
	ok := [][]Cell{{Str("bbr3"), Num(1.5), Count(3)}}
	for _, tc := range []struct {
		name string
		t    Table
		want string
	}{
		{"ok", Table{Columns: cols, Rows: ok}, ""},
		{"no columns", Table{}, "no columns"},
		{"bad key", Table{Columns: []Column{{Key: "Throughput (Mbps)"}}}, "want [a-z0-9_]+"},
		{"repeated", Table{Columns: []Column{{Key: "a"}, {Key: "a"}}}, "repeated"},
		{"short row", Table{Columns: cols, Rows: [][]Cell{{Str("x")}}}, "row 0 has 1 cells, want 3"},
		{"kind", Table{Columns: cols, Rows: [][]Cell{{Str("x"), Count(1), Count(3)}}}, "int cell in a float column"},
		{"unknown kind", Table{Columns: []Column{{Key: "a", Kind: Kind(9)}}}, "unknown kind"},
	} {
		err := tc.t.validate()
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestCellFormats(t *testing.T) {
	col := Column{Key: "x", Kind: Float, Digits: 2}
	for _, tc := range []struct {
		c         Cell
		csv, html string
	}{
		{Num(1.0 / 3), "0.3333333333333333", "0.33"},
		{Num(math.NaN()), "", "–"},
		{Num(2.5e9), "2.5e+09", "2500000000.00"},
		{Count(8833073152), "8833073152", "8833073152"},
		{Str("a<b"), "a<b", "a<b"}, // html escaping is the template's job
	} {
		if got := tc.c.csv(); got != tc.csv {
			t.Errorf("csv(%v) = %q, want %q", tc.c, got, tc.csv)
		}
		if got := tc.c.html(col); got != tc.html {
			t.Errorf("html(%v) = %q, want %q", tc.c, got, tc.html)
		}
	}
}

func TestFlowTableMatchesSchema(t *testing.T) {
	flows := sydneyConcurrent()
	tb := FlowTable("flows", flows)
	if err := tb.validate(); err != nil {
		t.Fatal(err)
	}
	if len(tb.Rows) != len(flows) {
		t.Fatalf("%d rows, want %d", len(tb.Rows), len(flows))
	}
	// Spot-check one numeric cell against its source field by key.
	for i, c := range tb.Columns {
		if c.Key == "rtt_inflation" && tb.Rows[1][i].f != flows[1].RTTInflation {
			t.Errorf("rtt_inflation cell = %v, want %v", tb.Rows[1][i].f, flows[1].RTTInflation)
		}
	}
	if tb.name() != "flows" {
		t.Errorf("name = %q", tb.name())
	}
}
