package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Phase-plane geometry and styling.
const (
	phaseWidth  = 18 * vg.Centimeter // with the legend strip, leaves square-ish axes
	phaseHeight = 12 * vg.Centimeter
	phaseRadius = 2.2  // pt, one instantaneous pair
	phaseMargin = 1.05 // axis maximum relative to the largest value drawn
	// capacityQuantile estimates the capacity for the efficiency line when it
	// is not given: the pair's p95 aggregate, what the path demonstrably
	// carried, without the single-interval outliers.
	capacityQuantile = 0.95
	phasePoint       = 0x393b79 // tab20b dark blue: the pairs
	phaseTrail       = 0xc7c7c7 // tab20 light grey: the trajectory
)

// PhasePlot draws the two-flow phase plane of seed 000 Fig. 15: each point is
// the pair (x1, x2) of instantaneous throughputs; the fairness line x1 = x2
// and the efficiency line x1 + x2 = C frame it (Chiu and Jain, "Analysis of
// the increase and decrease algorithms for congestion avoidance", 1989,
// Fig. 4: fair and efficient operation is their intersection).
func PhasePlot(title string, pp PhasePlane) (*Figure, error) {
	if err := pp.validate(); err != nil {
		return nil, fmt.Errorf("phase plot %q: %w", title, err)
	}
	n1, n2 := nameOr(pp.Name1, "flow 1"), nameOr(pp.Name2, "flow 2")
	f := newFigure(title, "throughput of "+n1+" (Mbit/s)", "throughput of "+n2+" (Mbit/s)")
	f.Width, f.Height = phaseWidth, phaseHeight
	xys := make(plotter.XYs, len(pp.X1))
	top := 0.0
	for i := range pp.X1 {
		xys[i] = plotter.XY{X: pp.X1[i], Y: pp.X2[i]}
		top = math.Max(top, math.Max(pp.X1[i], pp.X2[i]))
	}
	capacity, capNote := pp.CapacityMbps, "given"
	if capacity == 0 {
		capacity, capNote = aggregateQuantile(pp.X1, pp.X2, capacityQuantile), "p95 of x1 + x2"
	}
	top = math.Max(top, capacity) * phaseMargin
	if top == 0 {
		top = 1
	}
	trail, err := plotter.NewLine(xys)
	if err != nil {
		return nil, fmt.Errorf("phase plot %q: %w", title, err)
	}
	trail.LineStyle = draw.LineStyle{Color: rgb(phaseTrail), Width: vg.Points(0.6)}
	pts, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, fmt.Errorf("phase plot %q: %w", title, err)
	}
	pts.GlyphStyle = draw.GlyphStyle{Color: rgb(phasePoint), Shape: draw.CircleGlyph{}, Radius: vg.Points(phaseRadius)}
	fair := diagonal(plotter.XYs{{X: 0, Y: 0}, {X: top, Y: top}}, color.Black, nil)
	eff := diagonal(plotter.XYs{{X: 0, Y: capacity}, {X: capacity, Y: 0}}, rgb(colRed), dashes(1))
	f.plot.Add(trail, fair, eff, pts)
	f.addLegend("instantaneous pair", pts)
	f.addLegend("trajectory", trail)
	f.addLegend("fairness x1 = x2", fair)
	f.addLegend("efficiency x1 + x2 = C", eff)
	f.addLegend("C = " + strconv.FormatFloat(capacity, 'f', 1, 64) + " Mbit/s (" + capNote + ")")
	f.plot.X.Min, f.plot.Y.Min = 0, 0
	f.plot.X.Max, f.plot.Y.Max = top, top
	return f, nil
}

func nameOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// diagonal is a reference line through the given points.
func diagonal(xys plotter.XYs, c color.Color, d []vg.Length) *plotter.Line {
	l, _ := plotter.NewLine(xys) // two finite points: cannot fail
	l.LineStyle = draw.LineStyle{Color: c, Width: vg.Points(refWidth), Dashes: d}
	return l
}

// aggregateQuantile returns the q-quantile (nearest rank) of x1[i] + x2[i].
func aggregateQuantile(x1, x2 []float64, q float64) float64 {
	sum := make([]float64, len(x1))
	for i := range x1 {
		sum[i] = x1[i] + x2[i]
	}
	slices.Sort(sum)
	k := int(math.Ceil(q*float64(len(sum)))) - 1
	return sum[max(k, 0)]
}
