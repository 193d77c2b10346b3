package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure geometry. A 16:9-ish figure of 18 cm fits an A4 page and a laptop
// browser; the legend sits in a strip to the right of the axes, so it never
// hides data.
const (
	DefaultWidth  = 18 * vg.Centimeter // figure width
	DefaultHeight = 10 * vg.Centimeter // figure height
	// PNGDPI is the PNG resolution: 150 dpi keeps 10 pt tick labels legible
	// when the image is viewed at 100 % (an 18 cm figure is 1063 px wide).
	PNGDPI = 150
	// legendGap separates the axes from the legend strip and the strip from
	// the figure's right edge.
	legendGap = 6 * vg.Millimeter
	// legendTop lowers the legend strip below the title line.
	legendTop = 9 * vg.Millimeter
	// legendPad separates legend rows (gonum's default 0 lets them touch).
	legendPad = 3 * vg.Millimeter / 2
	// yHeadroom is the fraction of the y span added above the data, so that
	// a reference line or the largest marker does not sit on the frame.
	yHeadroom = 0.05
	// xMargin is the fraction of the x span kept free beyond the outermost
	// markers of a scatter at each end, so that no marker hangs over an end
	// of the x axis: the axes of a DefaultWidth figure are about 11 cm wide
	// beside the legend, and 5 % of that (15 pt) exceeds the largest
	// marker's radius (maxRadius, 8 pt).
	xMargin = 0.05
	// maxNameLen bounds a derived file stem.
	maxNameLen = 60
)

// Figure is one chart: a gonum plot with its legend kept apart so that the
// renderer can place it beside the axes. Build one with a constructor of this
// package (ThroughputInflation, DelayThroughput, TimeSeries, QueueOverTime,
// PhasePlot, SlotPlot); render it with SVG or PNG, or put it in a Report.
type Figure struct {
	Name    string // file stem for Write (derived from the title; may be changed)
	Caption string // text under the figure in the HTML report
	Width   vg.Length
	Height  vg.Length

	plot        *plot.Plot
	legend      plot.Legend
	legendNames []string
}

// newFigure returns a figure with title, axis labels and a light grid.
func newFigure(title, xLabel, yLabel string) *Figure {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.X.Tick.Marker = niceTicker{}
	p.Y.Tick.Marker = niceTicker{}
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 0xdd}
	g.Horizontal.Color = color.Gray{Y: 0xdd}
	p.Add(g)
	lg := plot.NewLegend()
	lg.Top = true
	lg.Left = true
	lg.TextStyle.Font.Size = vg.Points(10)
	lg.Padding = legendPad
	return &Figure{Name: slug(title), Width: DefaultWidth, Height: DefaultHeight, plot: p, legend: lg}
}

// headroom raises the y maximum by yHeadroom of the span, and gives an
// empty span (one point, or all values equal) a width of one unit so the
// axes stay drawable.
func headroom(f *Figure) {
	p := f.plot
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		if !(ax.Max > ax.Min) && !math.IsInf(ax.Min, 0) && !math.IsNaN(ax.Min) {
			ax.Max = ax.Min + 1
		}
	}
	if span := p.Y.Max - p.Y.Min; span > 0 && !math.IsInf(span, 0) {
		p.Y.Max += yHeadroom * span
	}
}

// marginX widens the x axis so that the markers' x range [lo, hi] lies
// xMargin of the axis span inside each end; call it after headroom.
func marginX(f *Figure, lo, hi float64) {
	ax := &f.plot.X
	span := ax.Max - ax.Min
	if !(span > 0) || math.IsInf(span, 0) {
		return
	}
	ax.Min = math.Min(ax.Min, lo-xMargin*span)
	ax.Max = math.Max(ax.Max, hi+xMargin*span)
}

// Plot gives access to the underlying gonum plot, e.g. to fix an axis range.
func (f *Figure) Plot() *plot.Plot { return f.plot }

// Title is the figure's title.
func (f *Figure) Title() string { return f.plot.Title.Text }

// LegendEntries is the number of entries in the legend.
func (f *Figure) LegendEntries() int { return len(f.legendNames) }

// addLegend adds one legend entry.
func (f *Figure) addLegend(name string, thumbs ...plot.Thumbnailer) {
	f.legend.Add(name, thumbs...)
	f.legendNames = append(f.legendNames, name)
}

// draw paints the figure on c: white background, axes on the left, legend
// strip on the right.
func (f *Figure) draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	axes, strip, ok := f.layout(c)
	if ok {
		f.legend.Draw(strip)
	}
	f.plot.Draw(axes)
}

// layout splits c into the axes and, if the legend has entries, the legend
// strip to their right.
func (f *Figure) layout(c draw.Canvas) (axes, strip draw.Canvas, hasLegend bool) {
	lr := f.legend.Rectangle(c)
	lw := lr.Max.X - lr.Min.X
	if lw <= 0 {
		return c, draw.Canvas{}, false
	}
	axes = draw.Crop(c, 0, -(lw + 2*legendGap), 0, 0)
	strip = draw.Crop(c, c.Size().X-lw-legendGap, -legendGap, 0, -legendTop)
	return axes, strip, true
}

func (f *Figure) size() (vg.Length, vg.Length) {
	w, h := f.Width, f.Height
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	return w, h
}

// SVG renders the figure as a standalone SVG document.
func (f *Figure) SVG() ([]byte, error) {
	w, h := f.size()
	c := vgsvg.New(w, h)
	if err := f.safeDraw(draw.New(c)); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("figure %s: svg: %w", f.Name, err)
	}
	return b.Bytes(), nil
}

// PNG renders the figure as a PNG image at PNGDPI.
func (f *Figure) PNG() ([]byte, error) {
	w, h := f.size()
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(PNGDPI))
	if err := f.safeDraw(draw.New(c)); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&b); err != nil {
		return nil, fmt.Errorf("figure %s: png: %w", f.Name, err)
	}
	return b.Bytes(), nil
}

// safeDraw turns a panic inside gonum/plot (it panics on, e.g., an empty
// axis range with a log scale) into an error naming the figure.
func (f *Figure) safeDraw(c draw.Canvas) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("figure %s: draw: %v", f.Name, r)
		}
	}()
	f.draw(c)
	return nil
}

// slug derives a file stem from a title: lower-case letters, digits and
// single dashes.
func slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		ok := (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9')
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= maxNameLen {
			break
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if s == "" {
		return "figure"
	}
	return s
}
