package report

import (
	"fmt"
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SlotMetric selects what SlotPlot draws per second of the slot.
type SlotMetric uint8

const (
	// SlotThroughput draws SlotProfile.Throughput (Mbit/s).
	SlotThroughput SlotMetric = iota
	// SlotRetransmits draws SlotProfile.Retransmits (segments per second).
	SlotRetransmits
)

// Slot-plot geometry.
const (
	// slotGroup is the fraction of each one-second column the bar group
	// fills; the rest separates neighbouring seconds.
	slotGroup = 0.8
	labelSlot = "time since the last reconfiguration boundary (s)"
	// barOutline is the stroke width of hollow bars (pt).
	barOutline = 1.5
)

func (m SlotMetric) label() (string, error) {
	switch m {
	case SlotThroughput:
		return "mean throughput (Mbit/s)", nil
	case SlotRetransmits:
		return "mean retransmissions (segments/s)", nil
	}
	return "", fmt.Errorf("slot metric %d: want SlotThroughput or SlotRetransmits", m)
}

func (m SlotMetric) values(p SlotProfile) [SlotSeconds]float64 {
	if m == SlotRetransmits {
		return p.Retransmits
	}
	return p.Throughput
}

// SlotPlot draws the per-second profile within the 15 s reconfiguration slot
// as grouped bars, one colour per profile: the bar of second i spans
// [i, i+1) s after a boundary, so the second that ends at the next boundary
// (where Starlink downlink traces show their retransmission burst) is the
// rightmost column.
func SlotPlot(title string, metric SlotMetric, profiles []SlotProfile) (*Figure, error) {
	yLabel, err := metric.label()
	if err != nil {
		return nil, fmt.Errorf("slot plot %q: %w", title, err)
	}
	if len(profiles) == 0 {
		return nil, fmt.Errorf("slot plot %q: no profiles", title)
	}
	bs, err := slotBars(metric, profiles)
	if err != nil {
		return nil, fmt.Errorf("slot plot %q: %w", title, err)
	}
	f := newFigure(title, labelSlot, yLabel)
	for j, b := range bs {
		f.plot.Add(b)
		f.addLegend(profiles[j].Name, b)
	}
	ticks := make([]plot.Tick, SlotSeconds+1)
	for i := range ticks {
		ticks[i] = plot.Tick{Value: float64(i), Label: strconv.Itoa(i)}
	}
	f.plot.X.Tick.Marker = plot.ConstantTicks(ticks)
	f.plot.X.Min, f.plot.X.Max = 0, SlotSeconds
	f.plot.Y.Min = 0
	headroom(f)
	return f, nil
}

// slotBars lays out one bar set per profile, side by side within each
// second; profiles sharing a colour key after the first are hollow.
func slotBars(metric SlotMetric, profiles []SlotProfile) ([]*bars, error) {
	n := float64(len(profiles))
	uses := map[string]int{}
	out := make([]*bars, len(profiles))
	for j, p := range profiles {
		vs := metric.values(p)
		for i, v := range vs {
			if err := finiteNonNeg(fmt.Sprintf("profile %d (%s): second %d", j, p.Name, i), v); err != nil {
				return nil, err
			}
		}
		k := CanonicalCCA(p.key())
		out[j] = &bars{
			values: vs,
			offset: (1-slotGroup)/2 + slotGroup*float64(j)/n,
			width:  slotGroup / n,
			fill:   CCAColor(p.key()),
			hollow: uses[k] > 0,
		}
		uses[k]++
	}
	return out, nil
}

// bars is one profile's bars: bar i covers [i+offset, i+offset+width) in
// data units, from 0 to values[i]. A hollow profile is drawn as outlines, to
// tell apart two profiles of one colour.
type bars struct {
	values        [SlotSeconds]float64
	offset, width float64
	fill          color.Color
	hollow        bool
}

// Plot implements plot.Plotter.
func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, v := range b.values {
		x0 := trX(float64(i) + b.offset)
		x1 := trX(float64(i) + b.offset + b.width)
		y0, y1 := trY(0), trY(v)
		b.rect(&c, vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1, Y: y1}})
	}
}

func (b *bars) rect(c *draw.Canvas, r vg.Rectangle) {
	pts := []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min}
	if !b.hollow {
		c.FillPolygon(b.fill, c.ClipPolygonY(pts))
		return
	}
	c.StrokeLines(draw.LineStyle{Color: b.fill, Width: vg.Points(barOutline)}, c.ClipLinesY(pts)...)
}

// DataRange implements plot.DataRanger.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymax = 0
	for _, v := range b.values {
		ymax = max(ymax, v)
	}
	return 0, SlotSeconds, 0, ymax
}

// Thumbnail implements plot.Thumbnailer.
func (b *bars) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	r.Min.X += (r.Max.X - r.Min.X) / 4
	r.Max.X -= (r.Max.X - r.Min.X) / 3
	b.rect(c, r)
}
