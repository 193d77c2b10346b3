package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// BarSeries is one set of bars across the categories of a CategoryBars
// chart, e.g. the simulated or the real scores of every CCA.
type BarSeries struct {
	Name   string    // legend entry
	Values []float64 // one per category; NaN leaves the bar out (no data)
}

// barColours tell the series of a category chart apart (simulated, real,
// …); the categories are on the x axis, so no CCA colour is needed.
var barColours = []uint32{colBlue, colOrange, colGreen, colPurple, colBrown, colGrey}

// CategoryBars draws grouped bars: one group per category (e.g. per CCA,
// seed 000 Fig. 14) with one bar per series side by side, and optional
// horizontal reference lines (e.g. the fair share 1). Values must be
// finite and ≥ 0 where present.
func CategoryBars(title, yLabel string, categories []string, series []BarSeries, refs []RefLine) (*Figure, error) {
	if len(categories) == 0 || len(series) == 0 {
		return nil, fmt.Errorf("bar chart %q: %d categories, %d series: want at least one of each", title, len(categories), len(series))
	}
	f := newFigure(title, "", yLabel)
	n := float64(len(series))
	for j, s := range series {
		if len(s.Values) != len(categories) {
			return nil, fmt.Errorf("bar chart %q: series %d (%s): %d values for %d categories", title, j, s.Name, len(s.Values), len(categories))
		}
		for i, v := range s.Values {
			if !math.IsNaN(v) {
				if err := finiteNonNeg(fmt.Sprintf("bar chart %q: series %s, %s", title, s.Name, categories[i]), v); err != nil {
					return nil, err
				}
			}
		}
		b := &catBars{values: s.Values, offset: (1-slotGroup)/2 + slotGroup*float64(j)/n, width: slotGroup / n,
			fill: rgb(barColours[j%len(barColours)])}
		f.plot.Add(b)
		f.addLegend(s.Name, b)
	}
	for i, r := range refs {
		l := newHLine(r.Y, dashes(i+1))
		f.plot.Add(l)
		f.addLegend(r.Label, l)
	}
	ticks := make([]plot.Tick, len(categories))
	for i, c := range categories {
		ticks[i] = plot.Tick{Value: float64(i) + 0.5, Label: c}
	}
	f.plot.X.Tick.Marker = plot.ConstantTicks(ticks)
	f.plot.X.Min, f.plot.X.Max = 0, float64(len(categories))
	f.plot.Y.Min = 0
	headroom(f)
	return f, nil
}

// catBars is one series' bars: bar i covers [i+offset, i+offset+width).
type catBars struct {
	values        []float64
	offset, width float64
	fill          color.Color
}

// Plot implements plot.Plotter.
func (b *catBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, v := range b.values {
		if math.IsNaN(v) {
			continue
		}
		x0, x1 := trX(float64(i)+b.offset), trX(float64(i)+b.offset+b.width)
		y0, y1 := trY(0), trY(v)
		pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}}
		c.FillPolygon(b.fill, c.ClipPolygonY(pts))
	}
}

// DataRange implements plot.DataRanger.
func (b *catBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	for _, v := range b.values {
		if !math.IsNaN(v) {
			ymax = math.Max(ymax, v)
		}
	}
	return 0, float64(len(b.values)), 0, ymax
}

// Thumbnail implements plot.Thumbnailer.
func (b *catBars) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	r.Min.X += (r.Max.X - r.Min.X) / 4
	r.Max.X -= (r.Max.X - r.Min.X) / 3
	pts := []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min}
	c.FillPolygon(b.fill, pts)
}
