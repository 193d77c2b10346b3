package report

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Reference-line styles.
const (
	refWidth      = 1.2  // pt, horizontal reference lines (fair share, saturation)
	boundaryWidth = 0.8  // pt, vertical slot boundaries
	boundaryGrey  = 0x99 // grey level of slot boundaries
)

// hLine is a horizontal line across the whole data area at Y. It widens the
// y range to include Y but leaves the x range to the data.
type hLine struct {
	y     float64
	style draw.LineStyle
}

func newHLine(y float64, dashes []vg.Length) *hLine {
	return &hLine{y: y, style: draw.LineStyle{Color: color.Black, Width: vg.Points(refWidth), Dashes: dashes}}
}

// Plot implements plot.Plotter.
func (l *hLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(l.y)
	if !c.ContainsY(y) {
		return
	}
	c.StrokeLine2(l.style, c.Min.X, y, c.Max.X, y)
}

// DataRange implements plot.DataRanger: only y is constrained.
func (l *hLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), l.y, l.y
}

// Thumbnail implements plot.Thumbnailer.
func (l *hLine) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(l.style, c.Min.X, y, c.Max.X, y)
}

// vLines are vertical lines across the data area at each x inside the x
// range (e.g. reconfiguration boundaries). They do not change the ranges.
type vLines struct {
	xs    []float64
	style draw.LineStyle
}

func newBoundaries(xs []float64) *vLines {
	return &vLines{xs: xs, style: draw.LineStyle{
		Color:  color.Gray{Y: boundaryGrey},
		Width:  vg.Points(boundaryWidth),
		Dashes: []vg.Length{vg.Points(3), vg.Points(3)},
	}}
}

// Plot implements plot.Plotter.
func (l *vLines) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, x := range l.xs {
		if x < p.X.Min || x > p.X.Max {
			continue
		}
		px := trX(x)
		c.StrokeLine2(l.style, px, c.Min.Y, px, c.Max.Y)
	}
}

// Thumbnail implements plot.Thumbnailer.
func (l *vLines) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(l.style, x, c.Min.Y, x, c.Max.Y)
}
