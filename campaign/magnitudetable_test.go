package campaign

import (
	"bytes"
	"strings"
	"testing"

	"github.com/leolab/leolab/report"
)

// The magnitude table's header and rows line up with and without ceilings,
// each ceiling sits after its count, and a (kind, direction) without a
// ceiling reads empty rather than borrowing another's.
func TestMagnitudeTableColumns(t *testing.T) {
	m := Magnitude{Kind: "dedicated", Direction: "downlink", Cells: 40, ThroughputWithin: 24, RetransWithin: 22,
		InflationWithin: 34, MedianAbsLog: 0.21, Rho: 0.88}
	ceils := []Ceiling{{Kind: "dedicated", Direction: "uplink", Throughput: 31.3, Retrans: 38.5, Inflation: 39.8, Rho: 0.83},
		{Kind: "dedicated", Direction: "downlink", Throughput: 36.5, Retrans: 28.1, Inflation: 39.2, Rho: 0.98}}
	lead := []report.Column{{Key: "set", Title: "set", Kind: report.Text}}
	for _, tc := range []struct {
		ceils []Ceiling
		want  string
	}{
		{nil, "set,direction,kind,cells,throughput_within,retrans_within,inflation_within,median_abs_log,spearman\n" +
			"fitted,downlink,dedicated,40,24,22,34,0.21,0.88\n"},
		{ceils, "set,direction,kind,cells,throughput_within,throughput_ceiling,retrans_within,retrans_ceiling," +
			"inflation_within,inflation_ceiling,median_abs_log,spearman,spearman_ceiling\n" +
			"fitted,downlink,dedicated,40,24,36.5,22,28.1,34,39.2,0.21,0.88,0.98\n"},
		{ceils[:1], "set,direction,kind,cells,throughput_within,throughput_ceiling,retrans_within,retrans_ceiling," +
			"inflation_within,inflation_ceiling,median_abs_log,spearman,spearman_ceiling\n" +
			"fitted,downlink,dedicated,40,24,,22,,34,,0.21,0.88,\n"},
	} {
		tab := report.Table{Name: "magnitude", Columns: MagnitudeColumns(lead, tc.ceils != nil)}
		tab.Rows = append(tab.Rows, MagnitudeRow([]report.Cell{report.Str("fitted")}, m, tc.ceils))
		var b bytes.Buffer
		if err := report.WriteCSV(&b, &tab); err != nil {
			t.Fatal(err)
		}
		if got := strings.ReplaceAll(b.String(), "\r\n", "\n"); got != tc.want {
			t.Errorf("%d ceilings: table\n%s want\n%s", len(tc.ceils), got, tc.want)
		}
	}
}
