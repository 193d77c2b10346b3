package analyze

import (
	"bytes"
	"strings"
	"testing"

	"github.com/leolab/leolab/report"
)

func TestTableSchemaCSVRoundTrip(t *testing.T) {
	a := Analyze([]Flow{
		{Label: "a", Group: "g", Concurrent: true, Data: constFlow("cubic", 5, 8e6, 20)},
		{Label: "b", Group: "g", Concurrent: true, Data: constFlow("reno", 5, 8e6, 30)},
		{Label: "s", Group: "h", SummaryOnly: true, Data: summaryFlow(summaryRow())},
	})
	tab := a.Table()
	var b bytes.Buffer
	if err := report.WriteCSV(&b, &tab); err != nil {
		t.Fatal(err)
	}
	back, err := report.ReadCSV(bytes.NewReader(b.Bytes()), tab.Columns)
	if err != nil || len(back.Rows) != 3 {
		t.Fatalf("round trip: %v, %d rows", err, len(back.Rows))
	}
	header := strings.SplitN(b.String(), "\n", 2)[0]
	if !strings.HasPrefix(header, "group,label,cca,") || !strings.Contains(header, ",throughput_mbps,") {
		t.Errorf("header %q", header)
	}
	// The summary row has no p95 RTT, share or queue: empty CSV cells.
	last := strings.Split(strings.TrimSpace(b.String()), "\n")[3]
	if !strings.Contains(last, ",summary,") || !strings.HasSuffix(last, ",,,,") {
		t.Errorf("summary row %q: want empty optional cells", last)
	}
}

func TestWriteText(t *testing.T) {
	a := Analyze([]Flow{
		{Label: "a", Group: "g", Concurrent: true, Data: constFlow("cubic", 5, 30e6, 20)},
		{Label: "b", Group: "g", Concurrent: true, Data: constFlow("reno", 5, 10e6, 30)},
	})
	var b bytes.Buffer
	if err := a.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"g  (2 concurrent flows)", "Mbit/s", "30.00", "10.00", "fairness: Jain 0.800", "fair share 20.00 Mbit/s"} {
		if !strings.Contains(out, want) {
			t.Errorf("text table lacks %q:\n%s", want, out)
		}
	}
}
