package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// errCapWidth is the width of an error bar's caps.
const errCapWidth = 4 * vg.Millimeter / 2

// ErrorBars adds error bars to a figure made by XY: at each (x[i], y[i]) a
// vertical bar of half-height yerr[i] and, when xerr is given, a horizontal
// one of half-width xerr[i], in the colour of key (a CCA name) — e.g. the
// 95 % confidence intervals of means over runs. Points with a NaN value or
// half-width get no bar; the axes grow to hold the bars.
func ErrorBars(f *Figure, key string, x, y, yerr, xerr []float64) error {
	if len(x) != len(y) || len(yerr) != len(y) || xerr != nil && len(xerr) != len(x) {
		return fmt.Errorf("error bars on %q: %d x, %d y, %d y errors, %d x errors", f.Title(), len(x), len(y), len(yerr), len(xerr))
	}
	style := draw.LineStyle{Color: CCAColor(key), Width: vg.Points(1)}
	var ys, xs []errPoint
	for i := range x {
		if math.IsNaN(x[i]) || math.IsNaN(y[i]) || math.IsInf(x[i], 0) || math.IsInf(y[i], 0) {
			continue
		}
		if e := yerr[i]; e >= 0 && !math.IsInf(e, 0) {
			ys = append(ys, errPoint{x[i], y[i], e})
		}
		if xerr != nil {
			if e := xerr[i]; e >= 0 && !math.IsInf(e, 0) {
				xs = append(xs, errPoint{x[i], y[i], e})
			}
		}
	}
	if len(ys) > 0 {
		b, err := plotter.NewYErrorBars(errYs(ys))
		if err != nil {
			return fmt.Errorf("error bars on %q: %w", f.Title(), err)
		}
		b.LineStyle, b.CapWidth = style, errCapWidth
		f.plot.Add(b)
	}
	if len(xs) > 0 {
		b, err := plotter.NewXErrorBars(errXs(xs))
		if err != nil {
			return fmt.Errorf("error bars on %q: %w", f.Title(), err)
		}
		b.LineStyle, b.CapWidth = style, errCapWidth
		f.plot.Add(b)
	}
	return nil
}

type errPoint struct{ x, y, e float64 }

// errYs and errXs give gonum's error-bar plotters their points and errors.
type errYs []errPoint

func (p errYs) Len() int                        { return len(p) }
func (p errYs) XY(i int) (float64, float64)     { return p[i].x, p[i].y }
func (p errYs) YError(i int) (float64, float64) { return p[i].e, p[i].e }

type errXs []errPoint

func (p errXs) Len() int                        { return len(p) }
func (p errXs) XY(i int) (float64, float64)     { return p[i].x, p[i].y }
func (p errXs) XError(i int) (float64, float64) { return p[i].e, p[i].e }
