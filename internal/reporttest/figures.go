// Package reporttest checks the figures of a written HTML report, for the
// tests of the packages and commands that write reports (paper000,
// leolab reproduce): one check instead of a copy in each.
package reporttest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

var (
	figureRE = regexp.MustCompile(`(?s)<figure>(.*?)</figure>`)
	pathRE   = regexp.MustCompile(`<path d="([^"]*)"`)
)

// minTexts is the fewest <text> elements a drawn figure has: axis labels,
// tick labels and a legend entry together are at least five.
const minTexts = 5

// Figures returns the body of each <figure> of html, in order.
func Figures(html string) []string {
	var out []string
	for _, m := range figureRE.FindAllStringSubmatch(html, -1) {
		out = append(out, m[1])
	}
	return out
}

// FigureProblems lists what is wrong with the figures of html: fewer than
// min, or one without an inline SVG, without text (axis labels, ticks,
// legend), without drawn data or without a caption. Data is a path of
// five or more points (a curve, a phase-plane trail, a bar: the white
// frame has four) or three or more circles (scatter markers, drawn as
// arcs). No problems: nil.
func FigureProblems(html string, min int) []string {
	figs := Figures(html)
	if len(figs) < min {
		return []string{fmt.Sprintf("%d figures, want at least %d", len(figs), min)}
	}
	var out []string
	for i, body := range figs {
		maxL, arcs := 0, 0
		for _, d := range pathRE.FindAllStringSubmatch(body, -1) {
			maxL = max(maxL, strings.Count(d[1], "L"))
			if strings.Contains(d[1], "A") {
				arcs++
			}
		}
		caption := body
		if c := strings.Index(body, "<figcaption>"); c >= 0 {
			caption = body[c+len("<figcaption>"):]
		}
		switch texts := strings.Count(body, "<text"); {
		case !strings.Contains(body, "<svg"):
			out = append(out, fmt.Sprintf("figure %d: no svg", i))
		case texts < minTexts:
			out = append(out, fmt.Sprintf("figure %d: %d text elements, want axis labels, ticks and a legend", i, texts))
		case maxL < 4 && arcs < 3:
			out = append(out, fmt.Sprintf("figure %d: no data drawn\n%.300s", i, caption))
		case !strings.Contains(body, "<figcaption>") || strings.HasPrefix(caption, "<span") || strings.HasPrefix(caption, "</figcaption>"):
			out = append(out, fmt.Sprintf("figure %d: empty caption", i))
		}
	}
	return out
}

// CheckFigures fails t with each of FigureProblems(html, min).
func CheckFigures(t testing.TB, html string, min int) {
	t.Helper()
	for _, p := range FigureProblems(html, min) {
		t.Error(p)
	}
}
