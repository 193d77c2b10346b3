package report

import (
	"bytes"
	"math"
	"regexp"
	"strings"
	"testing"
)

// sampleReport has one figure of every kind and two tables.
func sampleReport(t *testing.T) *Report {
	t.Helper()
	flows := sydneyConcurrent()
	must := func(f *Figure, err error) *Figure {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a := synthetic("bbr3", "bbr3", 60, func(x float64) float64 { return 200 + 50*math.Sin(x/4) })
	q := synthetic("Sydney", "bbr3", 60, func(x float64) float64 { return math.Mod(x*9, 99) })
	q.Unit = QueueUnit
	var sp SlotProfile
	sp.Name, sp.Key = "bbr3", "bbr3"
	for i := range sp.Retransmits {
		sp.Retransmits[i] = float64(10 + i*i)
	}
	evil := Table{Title: "escaping <check>", Columns: []Column{
		{Key: "what", Title: "what <th>", Kind: Text},
		{Key: "n", Title: "n", Unit: "µs & more", Kind: Int},
	}, Rows: [][]Cell{{Str(`<script>alert("x")</script>`), Count(1)}, {Str("a & b"), Count(2)}}}
	return &Report{
		Title:    "leolab report <test>",
		Subtitle: "Sydney downlink, run 1",
		Meta:     []Meta{{"inputs", "downlink_Sydney_*.csv"}, {"leolab", "test"}},
		Sections: []Section{
			{Title: "Flows", Text: []string{"Seed 000 Fig. 10 style: <b>not bold</b>."},
				Tables: []Table{FlowTable("Per-flow metrics", flows), evil},
				Figures: []*Figure{
					must(ThroughputInflation("Throughput vs RTT inflation", flows)),
					must(DelayThroughput("Throughput vs p95 delay", flows)),
				}},
			{Title: "Dynamics", Figures: []*Figure{
				must(TimeSeries("Throughput <over> time", "throughput", []Series{a}, SeriesOptions{Boundaries: []float64{11, 26, 41, 56}})),
				must(QueueOverTime("M/G/1 queue", []Series{q}, SeriesOptions{Refs: []RefLine{{Y: 99, Label: "saturation"}}})),
				must(PhasePlot("Phase plane", twoFlows())),
				must(SlotPlot("Slot profile", SlotRetransmits, []SlotProfile{sp})),
			}},
		},
	}
}

func TestRenderHTMLSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := RenderHTML(&b, sampleReport(t)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"http://", "https://", "<script", "src=", "@import", "url(", "<link", "<iframe"} {
		if strings.Contains(strings.ToLower(page), bad) {
			i := strings.Index(strings.ToLower(page), bad)
			t.Errorf("page contains %q: ...%s...", bad, page[max(0, i-60):min(len(page), i+60)])
		}
	}
	if n := strings.Count(page, "<svg"); n != 6 {
		t.Errorf("%d inline SVGs, want 6", n)
	}
	if strings.Contains(page, "<?xml") {
		t.Error("inline SVG kept its XML declaration")
	}
	if !strings.Contains(page, "<style>") {
		t.Error("no inline CSS")
	}
	// Without files on disk, the page must not link to PNG/SVG/CSV files.
	if regexp.MustCompile(`href="[^#]`).MatchString(page) {
		t.Error("RenderHTML links to files it did not write")
	}
}

func TestRenderHTMLEscapes(t *testing.T) {
	var b bytes.Buffer
	if err := RenderHTML(&b, sampleReport(t)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, raw := range []string{`<script>alert`, "<test>", "<b>not bold</b>", "<th>", "<check>", "<over>", "µs & more"} {
		if strings.Contains(page, raw) {
			t.Errorf("page contains unescaped %q", raw)
		}
	}
	for _, esc := range []string{"&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;", "a &amp; b", "leolab report &lt;test&gt;",
		"what &lt;th&gt;", "µs &amp; more", "Throughput &lt;over&gt; time"} {
		if !strings.Contains(page, esc) {
			t.Errorf("page lacks escaped %q", esc)
		}
	}
}

func TestRenderHTMLTableFromSchema(t *testing.T) {
	var b bytes.Buffer
	if err := RenderHTML(&b, sampleReport(t)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, c := range FlowColumns() {
		h := `<th scope="col">` + c.Title
		if c.Unit != "" {
			h += `<span class="unit">` + c.Unit + `</span>`
		}
		if !strings.Contains(page, h+"</th>") {
			t.Errorf("no header cell %q", h)
		}
	}
	// pcc's throughput, 44.30110418 Mbit/s, shown with the column's 1 decimal.
	if !strings.Contains(page, `<td class="num">44.3</td>`) {
		t.Error("pcc throughput not rendered as a right-aligned 44.3")
	}
}

func TestRenderHTMLRejects(t *testing.T) {
	r := sampleReport(t)
	r.Sections[1].Figures[1].Name = r.Sections[1].Figures[0].Name
	if err := RenderHTML(new(bytes.Buffer), r); err == nil || !strings.Contains(err.Error(), "share the file name") {
		t.Errorf("duplicate figure names: err = %v", err)
	}
	r = sampleReport(t)
	r.Sections[0].Figures = append(r.Sections[0].Figures, nil)
	if err := RenderHTML(new(bytes.Buffer), r); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("nil figure: err = %v", err)
	}
	r = sampleReport(t)
	r.Sections[0].Figures[0].Name = "../escape"
	if err := RenderHTML(new(bytes.Buffer), r); err == nil || !strings.Contains(err.Error(), "want [a-z0-9-]+") {
		t.Errorf("path in a figure name: err = %v", err)
	}
	r = sampleReport(t)
	r.Sections[0].Tables[0].Rows[0] = r.Sections[0].Tables[0].Rows[0][:3]
	if err := RenderHTML(new(bytes.Buffer), r); err == nil || !strings.Contains(err.Error(), "row 0 has 3 cells") {
		t.Errorf("short row: err = %v", err)
	}
}

func TestInlineSVG(t *testing.T) {
	in := "<?xml version=\"1.0\"?>\n<!-- c -->\n<svg width=\"1pt\"\n\txmlns=\"http://www.w3.org/2000/svg\"\n\txmlns:xlink=\"http://www.w3.org/1999/xlink\">\n<g></g>\n</svg>\n"
	want := "<svg width=\"1pt\">\n<g></g>\n</svg>\n"
	if got := inlineSVG([]byte(in)); got != want {
		t.Errorf("inlineSVG = %q, want %q", got, want)
	}
}
