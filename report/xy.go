package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// XYSeries is one curve or set of points against any x quantity, e.g. a
// drop probability against the queue length.
type XYSeries struct {
	Name string    // legend entry
	Key  string    // colour key: a CCA name ("" uses Name)
	X, Y []float64 // NaN in Y leaves a gap
	// Points draws markers instead of a line.
	Points bool
	// Color, when set, overrides the key's colour: series that are not
	// CCAs (a direction, a control) need distinct colours the key's hash
	// may not give.
	Color color.Color
}

// XY draws series against a named x axis (TimeSeries is the special case
// of time): lines or markers, horizontal reference lines in opt.Refs and
// vertical markers at opt.Boundaries. The y axis starts at 0 when no value
// is negative.
func XY(title, xLabel, yLabel string, series []XYSeries, opt SeriesOptions) (*Figure, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("xy plot %q: no series", title)
	}
	f := newFigure(title, xLabel, yLabel)
	nonNeg := true
	uses := map[string]int{}
	lo, hi := math.Inf(1), math.Inf(-1) // x range of the markers
	for i, s := range series {
		if err := (Series{Name: s.Name, T: s.X, V: s.Y}).validateXY(i); err != nil {
			return nil, fmt.Errorf("xy plot %q: %w", title, err)
		}
		key := s.Key
		if key == "" {
			key = s.Name
		}
		var col color.Color = CCAColor(key)
		if s.Color != nil {
			col = s.Color
		}
		k := CanonicalCCA(key)
		for _, seg := range segments(s.X, s.Y) {
			if s.Points {
				sc, err := plotter.NewScatter(seg)
				if err != nil {
					return nil, fmt.Errorf("xy plot %q: %s: %w", title, s.Name, err)
				}
				sc.GlyphStyle = draw.GlyphStyle{Color: col, Shape: glyph(uses[k]), Radius: vg.Points(plainRadius)}
				f.plot.Add(sc)
				continue
			}
			l, err := plotter.NewLine(seg)
			if err != nil {
				return nil, fmt.Errorf("xy plot %q: %s: %w", title, s.Name, err)
			}
			l.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(seriesWidth), Dashes: dashes(uses[k])}
			f.plot.Add(l)
		}
		if s.Points {
			f.addLegend(s.Name, marker(col, glyph(uses[k]), plainRadius))
		} else {
			f.addLegend(s.Name, lineThumb{draw.LineStyle{Color: col, Width: vg.Points(seriesWidth), Dashes: dashes(uses[k])}})
		}
		uses[k]++
		for j, v := range s.Y {
			nonNeg = nonNeg && !(v < 0)
			if s.Points && !math.IsNaN(v) {
				lo, hi = math.Min(lo, s.X[j]), math.Max(hi, s.X[j])
			}
		}
	}
	decorate(f, opt)
	if nonNeg {
		f.plot.Y.Min = 0
	}
	headroom(f)
	if lo <= hi {
		marginX(f, lo, hi) // no marker hangs over an end of the x axis
	}
	return f, nil
}

// validateXY checks that a series has one y per x and finite x values (x
// need not grow: markers may come in any order).
func (s Series) validateXY(i int) error {
	if len(s.T) != len(s.V) {
		return fmt.Errorf("series %d (%s): %d x values but %d y values", i, s.Name, len(s.T), len(s.V))
	}
	if len(s.T) == 0 {
		return fmt.Errorf("series %d (%s): no points", i, s.Name)
	}
	for j := range s.T {
		if math.IsNaN(s.T[j]) || math.IsInf(s.T[j], 0) || math.IsInf(s.V[j], 0) {
			return fmt.Errorf("series %d (%s): point %d (%v, %v) is not finite", i, s.Name, j, s.T[j], s.V[j])
		}
	}
	return nil
}
