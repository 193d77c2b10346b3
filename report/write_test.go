package report

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	r := sampleReport(t)
	if err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	// Every link of the page resolves to a file in dir or an anchor on the page.
	links := regexp.MustCompile(`href="([^"]*)"`).FindAllSubmatch(page, -1)
	if len(links) < 2*6+2 {
		t.Errorf("%d links, want PNG+SVG per figure and one CSV per table", len(links))
	}
	for _, m := range links {
		h := string(m[1])
		if h[0] == '#' {
			if !bytes.Contains(page, []byte(`id="`+h[1:]+`"`)) {
				t.Errorf("anchor %s has no target", h)
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, h)); err != nil {
			t.Errorf("link %s: %v", h, err)
		}
	}
	for _, s := range r.Sections {
		for _, f := range s.Figures {
			b, err := os.ReadFile(filepath.Join(dir, f.Name+".png"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := png.Decode(bytes.NewReader(b)); err != nil {
				t.Errorf("%s.png: %v", f.Name, err)
			}
		}
		for _, tb := range s.Tables {
			fh, err := os.Open(filepath.Join(dir, tb.name()+".csv"))
			if err != nil {
				t.Fatal(err)
			}
			back, err := ReadCSV(fh, tb.Columns)
			fh.Close()
			if err != nil || !sameTable(&tb, back) {
				t.Errorf("%s.csv does not round-trip: %v", tb.name(), err)
			}
		}
	}
	if *dump != "" {
		if err := Write(*dump, r); err != nil {
			t.Fatal(err)
		}
	}
}

func TestWriteNothingOnBadInput(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	r := sampleReport(t)
	r.Sections[0].Tables[0].Columns[0].Key = "Bad Key"
	if err := Write(dir, r); err == nil {
		t.Fatal("bad table: want an error")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("output directory exists after a failed Write: %v", err)
	}
}

// ExampleWrite shows how analyze assembles a report: fill the plain input
// types from the metrics, build figures, group them into sections, write.
func ExampleWrite() {
	flows := []FlowSummary{
		{Group: "downlink/sydney/dedicated", Label: "run1", CCA: "bbr3", ThroughputMbps: 235, RetransPerGB: 3660, RTTInflation: 1.76, P95DelayMs: 80},
		{Group: "downlink/sydney/dedicated", Label: "run1", CCA: "cubic", ThroughputMbps: 33, RetransPerGB: 1520, RTTInflation: 1.21, P95DelayMs: 45},
	}
	fig9, err := ThroughputInflation("Dedicated flows, downlink Sydney", flows)
	if err != nil {
		fmt.Println(err)
		return
	}
	fig9.Caption = "Marker area is proportional to retransmissions per GB (seed 000 Fig. 9)."
	r := &Report{
		Title: "leolab analyze",
		Meta:  []Meta{{Key: "inputs", Value: "traces/*.csv"}},
		Sections: []Section{{
			Title:   "Dedicated flows",
			Tables:  []Table{FlowTable("Per-flow metrics", flows)},
			Figures: []*Figure{fig9},
		}},
	}
	if err := Write(filepath.Join(os.TempDir(), "leolab-report-example"), r); err != nil {
		fmt.Println(err)
	}
}
