package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Box-plot geometry.
const (
	// boxFill is the share of its slot a box's width takes, leaving a gap
	// between neighbouring boxes of one category.
	boxFill = 0.75
	// boxLine is the width of a box's outline, whiskers and median (pt).
	boxLine = 0.8
	// outlierRadius is the radius of an outlier's ring (pt): small, since a
	// box of 300 per-second samples may have dozens.
	outlierRadius = 1.1
	// outlierMerge is the vertical distance (pt) below which an outlier's
	// ring is not drawn again: a fifth of its radius, invisible.
	outlierMerge = outlierRadius / 5
	// boxAlpha lightens a filled box so its median line stays visible.
	boxAlpha = 0xb0
)

// Box is one box's numbers, computed by the caller (e.g. metrics.Box):
// quartiles, whisker ends and the samples beyond them. N = 0 means no data
// (the box is left out); N = 1 draws a single tick.
type Box struct {
	N                int
	Q1, Median, Q3   float64
	WhiskLo, WhiskHi float64
	Outliers         []float64
}

// BoxSeries is one set of boxes across the categories of a CategoryBoxes
// chart, e.g. one CCA's simulated boxes over the cities.
type BoxSeries struct {
	Name   string // legend entry
	Key    string // colour key: a CCA name ("" uses Name)
	Hollow bool   // an outlined box (e.g. simulated) instead of a filled one (e.g. real)
	Boxes  []Box  // one per category
}

// CategoryBoxes draws grouped box plots: one group per category (e.g. per
// city, seed 003 Figs. 2–5) with one box per series side by side, coloured
// by Key, filled or hollow. Every number must be finite and ≥ 0 and the
// boxes ordered (WhiskLo ≤ Q1 ≤ Median ≤ Q3 ≤ WhiskHi).
func CategoryBoxes(title, yLabel string, categories []string, series []BoxSeries) (*Figure, error) {
	return categoryBoxes(title, yLabel, categories, series, false)
}

// CategoryBoxesLog is CategoryBoxes on a logarithmic y axis, for values
// spanning decades (e.g. cwnd: 0.1 MB for CUBIC, 90 MB for Hybla). Zeros
// are drawn at the axis's bottom, the smallest positive value shown.
func CategoryBoxesLog(title, yLabel string, categories []string, series []BoxSeries) (*Figure, error) {
	return categoryBoxes(title, yLabel, categories, series, true)
}

func categoryBoxes(title, yLabel string, categories []string, series []BoxSeries, logY bool) (*Figure, error) {
	if len(categories) == 0 || len(series) == 0 {
		return nil, fmt.Errorf("box plot %q: %d categories, %d series: want at least one of each", title, len(categories), len(series))
	}
	f := newFigure(title, "", yLabel)
	n := float64(len(series))
	for j, s := range series {
		if len(s.Boxes) != len(categories) {
			return nil, fmt.Errorf("box plot %q: series %d (%s): %d boxes for %d categories", title, j, s.Name, len(s.Boxes), len(categories))
		}
		for i, b := range s.Boxes {
			if err := b.validate(); err != nil {
				return nil, fmt.Errorf("box plot %q: series %s, %s: %w", title, s.Name, categories[i], err)
			}
		}
		key := s.Key
		if key == "" {
			key = s.Name
		}
		bp := &catBoxes{boxes: s.Boxes, offset: (1-slotGroup)/2 + slotGroup*float64(j)/n, width: slotGroup / n,
			col: CCAColor(key), hollow: s.Hollow, log: logY}
		f.plot.Add(bp)
		f.addLegend(s.Name, bp)
	}
	ticks := make([]plot.Tick, len(categories))
	for i, c := range categories {
		ticks[i] = plot.Tick{Value: float64(i) + 0.5, Label: c}
	}
	f.plot.X.Tick.Marker = plot.ConstantTicks(ticks)
	f.plot.X.Min, f.plot.X.Max = 0, float64(len(categories))
	if logY {
		f.plot.Y.Scale, f.plot.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
		if !(f.plot.Y.Min > 0) || math.IsInf(f.plot.Y.Min, 0) {
			return nil, fmt.Errorf("box plot %q: no positive value for a log axis", title)
		}
		f.plot.Y.Max *= logHeadroom
		return f, nil
	}
	f.plot.Y.Min = 0
	headroom(f)
	return f, nil
}

// logHeadroom raises a log axis's top by a factor, as yHeadroom does a
// linear one's.
const logHeadroom = 1.25

func (b Box) validate() error {
	if b.N < 0 {
		return fmt.Errorf("n = %d: want ≥ 0", b.N)
	}
	if b.N == 0 {
		return nil
	}
	vs := []float64{b.WhiskLo, b.Q1, b.Median, b.Q3, b.WhiskHi}
	for i, v := range append(vs, b.Outliers...) {
		if err := finiteNonNeg(fmt.Sprintf("value %d", i), v); err != nil {
			return err
		}
	}
	for i := 1; i < len(vs); i++ {
		if vs[i] < vs[i-1] {
			return fmt.Errorf("whisker %g, Q1 %g, median %g, Q3 %g, whisker %g: want ascending", vs[0], vs[1], vs[2], vs[3], vs[4])
		}
	}
	return nil
}

// catBoxes is one series' boxes: box i is centred in [i+offset, i+offset+width).
type catBoxes struct {
	boxes         []Box
	offset, width float64
	col           color.RGBA
	hollow        bool
	log           bool // on a log axis: zeros sit at the axis's bottom
}

func (cb *catBoxes) line() draw.LineStyle {
	return draw.LineStyle{Color: cb.col, Width: vg.Points(boxLine)}
}

// Plot implements plot.Plotter.
func (cb *catBoxes) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trLin := p.Transforms(&c)
	trY := trLin
	if cb.log {
		trY = func(v float64) vg.Length { return trLin(math.Max(v, p.Y.Min)) }
	}
	ls := cb.line()
	ring := draw.GlyphStyle{Color: cb.col, Shape: draw.RingGlyph{}, Radius: vg.Points(outlierRadius)}
	for i, b := range cb.boxes {
		if b.N == 0 {
			continue
		}
		mid := float64(i) + cb.offset + cb.width/2
		half := cb.width * boxFill / 2
		x0, xm, x1 := trX(mid-half), trX(mid), trX(mid+half)
		q1, med, q3 := trY(b.Q1), trY(b.Median), trY(b.Q3)
		// Whiskers with caps at half the box width.
		for _, w := range [][2]float64{{b.WhiskLo, b.Q1}, {b.Q3, b.WhiskHi}} {
			ya, yb := trY(w[0]), trY(w[1])
			c.StrokeLines(ls, c.ClipLinesY([]vg.Point{{X: xm, Y: ya}, {X: xm, Y: yb}})...)
		}
		cap0, cap1 := trX(mid-half/2), trX(mid+half/2)
		for _, w := range []float64{b.WhiskLo, b.WhiskHi} {
			y := trY(w)
			c.StrokeLines(ls, c.ClipLinesY([]vg.Point{{X: cap0, Y: y}, {X: cap1, Y: y}})...)
		}
		rect := []vg.Point{{X: x0, Y: q1}, {X: x1, Y: q1}, {X: x1, Y: q3}, {X: x0, Y: q3}, {X: x0, Y: q1}}
		medLine := ls
		if cb.hollow {
			c.FillPolygon(color.White, c.ClipPolygonY(rect))
		} else {
			fill := cb.col
			fill.A = boxAlpha
			// Premultiplied alpha: scale the channels with A.
			fill.R, fill.G, fill.B = uint8(uint32(fill.R)*boxAlpha/0xff), uint8(uint32(fill.G)*boxAlpha/0xff), uint8(uint32(fill.B)*boxAlpha/0xff)
			c.FillPolygon(fill, c.ClipPolygonY(rect))
			medLine.Color = color.Black
		}
		c.StrokeLines(ls, c.ClipLinesY(rect)...)
		medLine.Width = vg.Points(2 * boxLine)
		c.StrokeLines(medLine, c.ClipLinesY([]vg.Point{{X: x0, Y: med}, {X: x1, Y: med}})...)
		// Outliers are ascending: a ring within outlierMerge of the last
		// one drawn would cover it (integer counts repeat), so it is left out.
		last := vg.Length(math.Inf(-1))
		for _, o := range b.Outliers {
			pt := vg.Point{X: xm, Y: trY(o)}
			if c.Contains(pt) && pt.Y-last >= vg.Points(outlierMerge) {
				c.DrawGlyph(ring, pt)
				last = pt.Y
			}
		}
	}
}

// DataRange implements plot.DataRanger. On a log axis ymin is the
// smallest positive value (+Inf if there is none).
func (cb *catBoxes) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin = math.Inf(1)
	for _, b := range cb.boxes {
		if b.N == 0 {
			continue
		}
		ymax = math.Max(ymax, b.WhiskHi)
		for _, v := range append([]float64{b.WhiskLo, b.Q1, b.Median, b.Q3, b.WhiskHi}, b.Outliers...) {
			ymax = math.Max(ymax, v)
			if v > 0 {
				ymin = math.Min(ymin, v)
			}
		}
	}
	if !cb.log {
		ymin = 0
	}
	return 0, float64(len(cb.boxes)), ymin, ymax
}

// Thumbnail implements plot.Thumbnailer: a small box in the series' style.
func (cb *catBoxes) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	w := r.Max.X - r.Min.X
	r.Min.X += w / 4
	r.Max.X -= w / 4
	pts := []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min}
	if !cb.hollow {
		c.FillPolygon(cb.col, pts)
	}
	c.StrokeLines(cb.line(), pts)
}
