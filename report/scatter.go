package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Marker geometry of the scatter plots. Seed 000 Fig. 9/10 encode
// retransmissions per GB as marker size; we make the marker *area*
// proportional to the value (radius ∝ sqrt), the usual bubble-chart rule,
// on top of a minimum radius so that a zero stays visible.
const (
	minRadius   = 2.5  // pt, radius of a zero-retransmission marker
	maxRadius   = 8    // pt, radius of the largest value (area ratio to a zero ≈ 10)
	plainRadius = 3.5  // pt, radius of an unsized marker (Pantheon plot, legend)
	markerAlpha = 0xb4 // fill opacity, so overlapping runs stay visible
	// sizeSteps is how many reference sizes the size legend shows.
	sizeSteps = 3
)

// Axis labels shared by the flow scatter plots.
const (
	labelThroughput = "throughput (Mbit/s)"
	labelInflation  = "RTT inflation: mean RTT / min RTT (ratio)"
	labelP95Delay   = "95th-percentile delay (ms), axis reversed: better is right"
)

// cca groups flows by canonical CCA in order of first appearance.
type cca struct {
	name  string // as first seen, for the legend
	flows []FlowSummary
}

func groupByCCA(flows []FlowSummary) []cca {
	var out []cca
	idx := map[string]int{}
	for _, f := range flows {
		k := CanonicalCCA(f.CCA)
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, cca{name: f.CCA})
		}
		out[i].flows = append(out[i].flows, f)
	}
	return out
}

func validateFlows(flows []FlowSummary, delay bool) error {
	if len(flows) == 0 {
		return fmt.Errorf("no flows")
	}
	for i, f := range flows {
		if err := f.validate(i, delay); err != nil {
			return err
		}
	}
	return nil
}

// fill is the translucent fill of a CCA's markers.
func fill(name string) color.NRGBA {
	c := CCAColor(name)
	return color.NRGBA{R: c.R, G: c.G, B: c.B, A: markerAlpha}
}

// radius maps a retransmission rate to a marker radius (area ∝ value).
func radius(v, max float64) vg.Length {
	if max <= 0 {
		return vg.Points(minRadius)
	}
	return vg.Points(minRadius + (maxRadius-minRadius)*math.Sqrt(v/max))
}

// ThroughputInflation draws seed 000 Fig. 9/10: mean throughput against RTT
// inflation, one colour per CCA, marker area proportional to retransmissions
// per GB, and for concurrent flows (FairShareMbps > 0) the fair-share line
// y = ΣT/N of each distinct group.
func ThroughputInflation(title string, flows []FlowSummary) (*Figure, error) {
	if err := validateFlows(flows, false); err != nil {
		return nil, fmt.Errorf("throughput vs rtt inflation: %w", err)
	}
	f := newFigure(title, labelInflation, labelThroughput)
	maxR := 0.0
	for _, fl := range flows {
		maxR = math.Max(maxR, fl.RetransPerGB)
	}
	for _, g := range groupByCCA(flows) {
		s, err := flowScatter(g, rttInflation)
		if err != nil {
			return nil, fmt.Errorf("throughput vs rtt inflation: %w", err)
		}
		col := fill(g.name)
		pts := g.flows
		s.GlyphStyleFunc = func(i int) draw.GlyphStyle {
			return draw.GlyphStyle{Color: col, Shape: draw.CircleGlyph{}, Radius: radius(pts[i].RetransPerGB, maxR)}
		}
		f.plot.Add(s)
		f.addLegend(g.name, marker(col, draw.CircleGlyph{}, plainRadius))
	}
	addFairShare(f, flows)
	addSizeLegend(f, maxR)
	f.plot.Y.Min = 0
	f.plot.X.Min = math.Min(f.plot.X.Min, 1)
	headroom(f)
	lo, hi := xRange(flows, rttInflation)
	marginX(f, lo, hi)
	return f, nil
}

// rttInflation and p95Delay are the x values of the flow scatters.
func rttInflation(f FlowSummary) float64 { return f.RTTInflation }
func p95Delay(f FlowSummary) float64     { return f.P95DelayMs }

// flowScatter is one CCA's flows as points (x(flow), throughput).
func flowScatter(g cca, x func(FlowSummary) float64) (*plotter.Scatter, error) {
	xys := make(plotter.XYs, len(g.flows))
	for i, fl := range g.flows {
		xys[i] = plotter.XY{X: x(fl), Y: fl.ThroughputMbps}
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", g.name, err)
	}
	return s, nil
}

// xRange is the range of x over the flows (at least one).
func xRange(flows []FlowSummary, x func(FlowSummary) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, fl := range flows {
		lo, hi = math.Min(lo, x(fl)), math.Max(hi, x(fl))
	}
	return lo, hi
}

// addFairShare draws one dashed line per distinct fair share.
func addFairShare(f *Figure, flows []FlowSummary) {
	seen := map[float64]bool{}
	var shares []float64
	for _, fl := range flows {
		if fl.FairShareMbps > 0 && !seen[fl.FairShareMbps] {
			seen[fl.FairShareMbps] = true
			shares = append(shares, fl.FairShareMbps)
		}
	}
	// Beyond two groups one legend row per line crowds out the size
	// legend: the lines share one dash pattern and one row naming their range.
	if len(shares) > maxFairShareRows {
		lo, hi := slices.Min(shares), slices.Max(shares)
		var first *hLine
		for _, y := range shares {
			l := newHLine(y, dashes(1))
			f.plot.Add(l)
			if first == nil {
				first = l
			}
		}
		f.addLegend(fmt.Sprintf("fair share, %d groups: %.1f–%.1f Mbit/s", len(shares), lo, hi), first)
		return
	}
	for i, y := range shares {
		l := newHLine(y, dashes(i+1))
		f.plot.Add(l)
		f.addLegend(fairShareLabel(y), l)
	}
}

// maxFairShareRows is the most fair-share lines given a legend row each.
const maxFairShareRows = 2

// fairShareLabel names the fair-share line of value y (Mbit/s).
func fairShareLabel(y float64) string {
	return "fair share " + strconv.FormatFloat(y, 'f', 1, 64) + " Mbit/s"
}

// addSizeLegend explains marker sizes with sizeSteps reference values and
// spaces the legend so that the largest reference marker fits its row.
func addSizeLegend(f *Figure, max float64) {
	text := f.legend.TextStyle.Rectangle("Xg").Max.Y
	if pad := vg.Points(2*maxRadius+2) - text; pad > f.legend.Padding {
		f.legend.Padding = pad
	}
	if max <= 0 {
		f.addLegend("retr/GB: all 0", marker(color.Gray{Y: 0x80}, draw.CircleGlyph{}, minRadius))
		return
	}
	for i := sizeSteps; i >= 1; i-- {
		v := roundSig(max * float64(i) / sizeSteps)
		r := radius(v, max)
		f.addLegend(compact(v)+" retr/GB", sizedMarker{r: r})
	}
}

// compact prints a reference value short: 950000 → "950k", 1200 → "1200".
func compact(v float64) string {
	if v >= 1e4 {
		return strconv.FormatFloat(v/1e3, 'g', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// roundSig rounds v to two significant digits.
func roundSig(v float64) float64 {
	if v == 0 {
		return 0
	}
	p := math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-1)
	return math.Round(v/p) * p
}

// sizedMarker is a legend thumbnail: a grey ring of a given radius.
type sizedMarker struct{ r vg.Length }

// Thumbnail implements plot.Thumbnailer.
func (m sizedMarker) Thumbnail(c *draw.Canvas) {
	st := draw.GlyphStyle{Color: color.Gray{Y: 0x60}, Shape: draw.RingGlyph{}, Radius: m.r}
	c.DrawGlyphNoClip(st, c.Center())
}

// marker is a legend thumbnail of one glyph.
func marker(col color.Color, shape draw.GlyphDrawer, r float64) plot.Thumbnailer {
	return glyphThumb{draw.GlyphStyle{Color: col, Shape: shape, Radius: vg.Points(r)}}
}

type glyphThumb struct{ st draw.GlyphStyle }

// Thumbnail implements plot.Thumbnailer.
func (g glyphThumb) Thumbnail(c *draw.Canvas) { c.DrawGlyphNoClip(g.st, c.Center()) }

// DelayThroughput draws Pantheon's summary scatter: throughput against the
// 95th-percentile delay, one point per flow, one colour per CCA, with the
// delay axis reversed as Pantheon draws it (Yan et al., "Pantheon: the
// training ground for Internet congestion-control research", USENIX ATC 2018,
// Fig. 2 and 3), so that better schemes lie towards the upper right.
func DelayThroughput(title string, flows []FlowSummary) (*Figure, error) {
	if err := validateFlows(flows, true); err != nil {
		return nil, fmt.Errorf("throughput vs p95 delay: %w", err)
	}
	f := newFigure(title, labelP95Delay, labelThroughput)
	for i, g := range groupByCCA(flows) {
		s, err := flowScatter(g, p95Delay)
		if err != nil {
			return nil, fmt.Errorf("throughput vs p95 delay: %w", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: fill(g.name), Shape: glyph(i / 12), Radius: vg.Points(plainRadius + 1)}
		f.plot.Add(s)
		f.addLegend(g.name, s)
	}
	f.plot.X.Scale = plot.InvertedScale{Normalizer: f.plot.X.Scale}
	f.plot.Y.Min = 0
	headroom(f)
	lo, hi := xRange(flows, p95Delay)
	marginX(f, lo, hi)
	return f, nil
}
