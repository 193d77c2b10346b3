package report

import (
	"hash/fnv"
	"image/color"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Colours of the CCAs as 0xRRGGBB, fixed so one algorithm has one colour in
// every figure. The values are Tableau 10 (Tableau's default categorical
// palette, designed to stay distinguishable, also in print; the matplotlib
// "tab10" colours) plus two darker tones from Tableau 20b, with the BBR family
// on the warm hues and the loss/delay-based schemes on the cool ones.
const (
	colBlue      = 0x1f77b4 // tab10 blue
	colOrange    = 0xff7f0e // tab10 orange
	colGreen     = 0x2ca02c // tab10 green
	colRed       = 0xd62728 // tab10 red
	colPurple    = 0x9467bd // tab10 purple
	colBrown     = 0x8c564b // tab10 brown
	colPink      = 0xe377c2 // tab10 pink
	colGrey      = 0x7f7f7f // tab10 grey
	colOlive     = 0xbcbd22 // tab10 olive
	colCyan      = 0x17becf // tab10 cyan
	colNavy      = 0x393b79 // tab20b dark blue
	colDarkGreen = 0x637939 // tab20b dark olive green
)

// rgb turns 0xRRGGBB into an opaque colour.
func rgb(v uint32) color.RGBA {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// CCAColor returns the fixed colour of a congestion control. Names are
// matched after CanonicalCCA; the dataset's "bbr" (BBRv3 in seed 000) and
// "bbr3" share a colour. Any other name gets a deterministic colour from a
// hash of the name, so it is stable across plots too.
func CCAColor(name string) color.RGBA {
	return rgb(ccaColor(name))
}

func ccaColor(name string) uint32 {
	switch CanonicalCCA(name) {
	case "bbr3":
		return colRed
	case "bbr2":
		return colBrown
	case "bbr1":
		return colOrange
	case "cubic":
		return colBlue
	case "reno":
		return colNavy
	case "hybla":
		return colCyan
	case "vegas":
		return colGreen
	case "copa":
		return colOlive
	case "leocc":
		return colPurple
	case "pcc":
		return colPink
	case "learned":
		return colDarkGreen
	}
	return fallbackColor(name)
}

// fallbackColor picks one of the palette's colours by a hash of the name.
func fallbackColor(name string) uint32 {
	pal := [...]uint32{colBlue, colOrange, colGreen, colRed, colPurple, colBrown,
		colPink, colGrey, colOlive, colCyan, colNavy, colDarkGreen}
	h := fnv.New32a()
	h.Write([]byte(name))
	return pal[h.Sum32()%uint32(len(pal))]
}

// CanonicalCCA folds the spellings found in papers, kernels and file names
// onto one name: lower case, no separators or version "v" ("BBR-v3", "bbrv3",
// "bbr_3" → "bbr3"); "bbr" is BBRv3 as in the seed-000 dataset (xanmod 6.19
// kernel, see ../shared/data/README.md); "ccp" is Copa deployed through CCP
// (same dataset); "newreno" is "reno".
func CanonicalCCA(name string) string {
	s := strings.ToLower(strings.TrimSpace(name))
	s = strings.NewReplacer("-", "", "_", "", " ", "", ".", "").Replace(s)
	if strings.HasPrefix(s, "bbrv") {
		s = "bbr" + s[len("bbrv"):]
	}
	switch s {
	case "bbr":
		return "bbr3"
	case "ccp":
		return "copa"
	case "newreno":
		return "reno"
	}
	return s
}

// dashes are the line patterns used to tell apart several series that share
// one colour (e.g. two bbr3 flows): solid, dashed, dotted, dash-dot.
func dashes(n int) []vg.Length {
	switch n % 4 {
	case 1:
		return []vg.Length{vg.Points(6), vg.Points(3)}
	case 2:
		return []vg.Length{vg.Points(1.5), vg.Points(2)}
	case 3:
		return []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}
	}
	return nil
}

// glyphs are the marker shapes used to tell apart several point sets that
// share one colour.
func glyph(n int) draw.GlyphDrawer {
	switch n % 4 {
	case 1:
		return draw.TriangleGlyph{}
	case 2:
		return draw.SquareGlyph{}
	case 3:
		return draw.CrossGlyph{}
	}
	return draw.CircleGlyph{}
}
