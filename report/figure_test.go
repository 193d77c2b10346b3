package report

import (
	"bytes"
	"encoding/xml"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

var dump = flag.String("dump", "", "write every rendered test figure as PNG into this directory (for eyeballing)")

// svgText is one <text> element of a rendered SVG.
type svgText struct {
	X, Y float64
	S    string
}

// svgTexts parses an SVG document and returns its text elements.
func svgTexts(t *testing.T, svg []byte) []svgText {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var out []svgText
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "text" {
			continue
		}
		var el struct {
			X    string `xml:"x,attr"`
			Y    string `xml:"y,attr"`
			Body string `xml:",chardata"`
		}
		if err := dec.DecodeElement(&el, &se); err != nil {
			t.Fatalf("svg: decode text: %v", err)
		}
		x, _ := strconv.ParseFloat(el.X, 64)
		y, _ := strconv.ParseFloat(el.Y, 64)
		out = append(out, svgText{X: x, Y: y, S: el.Body})
	}
	return out
}

// hasText reports whether some text element equals s.
func hasText(texts []svgText, s string) bool {
	for _, tx := range texts {
		if tx.S == s {
			return true
		}
	}
	return false
}

// renderBoth renders f to SVG and PNG, checks both are well-formed and
// non-empty, checks the title, axis labels and legend entries are in the SVG
// text, and returns the SVG texts.
func renderBoth(t *testing.T, f *Figure, want ...string) []svgText {
	t.Helper()
	svg, err := f.SVG()
	if err != nil {
		t.Fatalf("SVG: %v", err)
	}
	if err := xml.Unmarshal(svg, new(struct{})); err != nil {
		t.Fatalf("SVG is not well-formed XML: %v", err)
	}
	pngb, err := f.PNG()
	if err != nil {
		t.Fatalf("PNG: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(pngb))
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	wantW := int(float64(f.Width/vg.Inch)*PNGDPI + 0.5)
	if got := img.Bounds().Dx(); got < wantW-1 || got > wantW+1 {
		t.Errorf("PNG width %d px, want %d (%.1f in at %d dpi)", got, wantW, float64(f.Width/vg.Inch), PNGDPI)
	}
	if *dump != "" {
		if err := os.WriteFile(filepath.Join(*dump, f.Name+".png"), pngb, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	texts := svgTexts(t, svg)
	p := f.Plot()
	if f.LegendEntries() == 0 {
		t.Errorf("figure %q has no legend entries", f.Title())
	}
	must := append([]string{p.Title.Text, p.X.Label.Text, p.Y.Label.Text}, f.legendNames...)
	must = append(must, want...)
	for _, s := range must {
		if s == "" {
			t.Errorf("figure %q: empty title, axis label or legend entry", f.Title())
			continue
		}
		if !hasText(texts, s) {
			t.Errorf("figure %q: SVG lacks text %q", f.Title(), s)
		}
	}
	return texts
}

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Throughput vs RTT inflation — downlink, Sydney", "throughput-vs-rtt-inflation-downlink-sydney"},
		{"  ", "figure"},
		{"M/G/1 queue (BBRv3)", "m-g-1-queue-bbrv3"},
		{strings.Repeat("ab ", 40), strings.TrimRight(strings.Repeat("ab-", 20), "-")},
	} {
		if got := slug(tc.in); got != tc.want {
			t.Errorf("slug(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFigureLegendBesideAxes(t *testing.T) {
	// The legend strip must not overlap the data area: every legend text
	// must lie to the right of the rightmost x tick label.
	f, err := ThroughputInflation("legend placement", sydneyConcurrent())
	if err != nil {
		t.Fatal(err)
	}
	texts := renderBoth(t, f)
	legend := map[string]bool{}
	for _, n := range f.legendNames {
		legend[n] = true
	}
	maxTick, minLegend := -1.0, 1e9
	for _, tx := range texts {
		if legend[tx.S] {
			minLegend = min(minLegend, tx.X)
		} else if _, err := strconv.ParseFloat(tx.S, 64); err == nil {
			maxTick = max(maxTick, tx.X)
		}
	}
	if !(minLegend > maxTick) {
		t.Errorf("legend text starts at x=%.1f, left of the last tick label at x=%.1f", minLegend, maxTick)
	}
}

func benchFigure(b *testing.B) *Figure {
	var ss []Series
	for i, cca := range []string{"cubic", "bbr3", "bbr1", "pcc", "leocc", "vegas", "hybla", "bbr2", "copa"} {
		s := Series{Name: cca, Unit: "Mbit/s"}
		for j := range 300 {
			s.T = append(s.T, float64(j+1))
			s.V = append(s.V, float64(10*i)+float64(j%15))
		}
		ss = append(ss, s)
	}
	f, err := TimeSeries("bench", "throughput", ss, SeriesOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkRender renders a 9-flow, 300-interval time series (the seed-000
// concurrent scenario) to SVG and to PNG at PNGDPI.
func BenchmarkRender(b *testing.B) {
	f := benchFigure(b)
	for _, r := range []struct {
		name   string
		render func() ([]byte, error)
	}{{"SVG", f.SVG}, {"PNG", f.PNG}} {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.render(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
