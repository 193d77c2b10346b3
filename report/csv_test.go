package report

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata (refused if the output does not round-trip)")

func sameTable(a, b *Table) bool {
	if len(a.Rows) != len(b.Rows) || len(a.Columns) != len(b.Columns) {
		return false
	}
	for r := range a.Rows {
		for i := range a.Rows[r] {
			x, y := a.Rows[r][i], b.Rows[r][i]
			if x.kind != y.kind || x.s != y.s || x.i != y.i {
				return false
			}
			if x.f != y.f && !(math.IsNaN(x.f) && math.IsNaN(y.f)) {
				return false
			}
		}
	}
	return true
}

func awkwardTable() *Table {
	return &Table{
		Title:   "awkward",
		Columns: []Column{{Key: "name", Kind: Text}, {Key: "v", Kind: Float}, {Key: "n", Kind: Int}},
		Rows: [][]Cell{
			{Str(`quote " and, comma`), Num(0.1 + 0.2), Count(-3)},
			{Str("line\nbreak"), Num(math.NaN()), Count(0)},
			{Str("São Paulo <b>"), Num(1e-300), Count(1 << 62)},
			{Str(""), Num(math.MaxFloat64), Count(7)},
		},
	}
}

func TestCSVRoundTrip(t *testing.T) {
	for _, tb := range []*Table{awkwardTable(), ptr(FlowTable("flows", sydneyConcurrent()))} {
		var b bytes.Buffer
		if err := WriteCSV(&b, tb); err != nil {
			t.Fatal(err)
		}
		back, err := ReadCSV(&b, tb.Columns)
		if err != nil {
			t.Fatalf("%s: %v", tb.Title, err)
		}
		if !sameTable(tb, back) {
			t.Errorf("%s: round trip changed the table:\n%v\n%v", tb.Title, tb.Rows, back.Rows)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestCSVGolden(t *testing.T) {
	tb := FlowTable("flows", sydneyConcurrent())
	var b bytes.Buffer
	if err := WriteCSV(&b, &tb); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "flows.golden.csv")
	if *update {
		back, err := ReadCSV(bytes.NewReader(b.Bytes()), tb.Columns)
		if err != nil || !sameTable(&tb, back) {
			t.Fatalf("refusing to update %s: output does not round-trip (%v)", path, err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("CSV differs from %s:\n%s\nwant:\n%s", path, b.Bytes(), want)
	}
	// The header is the schema's keys, nothing hand-written.
	hdr, _, _ := strings.Cut(string(want), "\n")
	var keys []string
	for _, c := range FlowColumns() {
		keys = append(keys, c.Key)
	}
	if hdr != strings.Join(keys, ",") {
		t.Errorf("golden header %q is not the schema %q", hdr, strings.Join(keys, ","))
	}
}

func TestReadCSVErrors(t *testing.T) {
	cols := []Column{{Key: "cca", Kind: Text}, {Key: "mbps", Kind: Float}, {Key: "n", Kind: Int}}
	for _, tc := range []struct{ in, want string }{
		{"", "csv header"},
		{"cca,mbit,n\n", `column 2 is "mbit", want "mbps"`},
		{"cca,mbps,n\nbbr3,fast,1\n", "line 2 column mbps"},
		{"cca,mbps,n\nbbr3,1,2\ncubic,1,2.5\n", "line 3 column n"},
		{"cca,mbps,n\nbbr3,1\n", "wrong number of fields"},
	} {
		if _, err := ReadCSV(strings.NewReader(tc.in), cols); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadCSV(%q): err = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func FuzzReadCSV(f *testing.F) {
	var b bytes.Buffer
	if err := WriteCSV(&b, awkwardTable()); err != nil {
		f.Fatal(err)
	}
	f.Add(b.String())
	f.Add("name,v,n\n,,\n")
	cols := awkwardTable().Columns
	f.Fuzz(func(t *testing.T, in string) {
		tb, err := ReadCSV(strings.NewReader(in), cols)
		if err != nil {
			return
		}
		// Whatever parses must survive a write/read cycle unchanged.
		var out bytes.Buffer
		if err := WriteCSV(&out, tb); err != nil {
			t.Fatalf("write of a parsed table: %v", err)
		}
		back, err := ReadCSV(&out, cols)
		if err != nil || !sameTable(tb, back) {
			t.Fatalf("round trip of %q failed: %v", in, err)
		}
	})
}
