package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SimRealPoint is one comparison cell: a simulated and a real value of the
// same metric.
type SimRealPoint struct {
	CCA       string
	Label     string // e.g. the city, for the caption's reader
	Sim, Real float64
}

// SimReal draws simulated against real values on log–log axes, one colour
// per CCA, with the identity line and the band (1±band)·real around it
// (issue 17's ±25 % for throughput): a faithful model puts its points on the
// line and inside the band. Points that are not positive on both axes are
// left out (they have no place on a log axis); at least one must remain.
func SimReal(title, unit string, band float64, pts []SimRealPoint) (*Figure, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	var kept []SimRealPoint
	for _, p := range pts {
		if p.Sim > 0 && p.Real > 0 && !math.IsInf(p.Sim+p.Real, 0) {
			kept = append(kept, p)
			lo, hi = math.Min(lo, math.Min(p.Sim, p.Real)), math.Max(hi, math.Max(p.Sim, p.Real))
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("sim vs real %q: no point positive on both axes", title)
	}
	lo, hi = lo/1.5, hi*1.5
	f := newFigure(title, "real "+unit, "simulated "+unit)
	f.plot.X.Scale, f.plot.Y.Scale = plot.LogScale{}, plot.LogScale{}
	f.plot.X.Tick.Marker, f.plot.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	f.plot.X.Min, f.plot.X.Max, f.plot.Y.Min, f.plot.Y.Max = lo, hi, lo, hi
	for _, k := range []float64{1, 1 + band, 1 / (1 + band)} {
		line, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo * k}, {X: hi, Y: hi * k}})
		if err != nil {
			return nil, err
		}
		line.Color = color.Gray{Y: 0x55}
		if k != 1 {
			line.Color = color.Gray{Y: 0xaa}
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		f.plot.Add(line)
	}
	byCCA := map[string]plotter.XYs{}
	var order []string
	for _, p := range kept {
		k := CanonicalCCA(p.CCA)
		if _, ok := byCCA[k]; !ok {
			order = append(order, p.CCA)
		}
		byCCA[k] = append(byCCA[k], plotter.XY{X: p.Real, Y: p.Sim})
	}
	for _, name := range order {
		s, err := plotter.NewScatter(byCCA[CanonicalCCA(name)])
		if err != nil {
			return nil, fmt.Errorf("sim vs real %q: %w", title, err)
		}
		col := fill(name)
		s.GlyphStyle = draw.GlyphStyle{Color: col, Shape: draw.CircleGlyph{}, Radius: vg.Points(plainRadius)}
		f.plot.Add(s)
		f.addLegend(name, marker(col, draw.CircleGlyph{}, plainRadius))
	}
	return f, nil
}
