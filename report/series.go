package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Line geometry of the time series.
const (
	seriesWidth = 1.2 // pt
	// labelTime is the x axis of every time plot: time since the run's start.
	labelTime = "time since start (s)"
	// DefaultBoundaryLabel names the vertical markers of SeriesOptions.
	DefaultBoundaryLabel = "reconfiguration boundary"
	// QueueQuantity is the y quantity of QueueOverTime: the seed-000 §4.3
	// M/G/1 estimate Q = λ·W_q (Pollaczek–Khinchine with Little's law).
	QueueQuantity = "estimated M/G/1 queue Q"
	// QueueUnit is the unit QueueOverTime requires of its series.
	QueueUnit = "packets"
)

// SeriesOptions decorates a time plot.
type SeriesOptions struct {
	// Boundaries are x positions (s) of vertical markers, e.g. the
	// reconfiguration instants (:12/:27/:42/:57 UTC mapped to run time).
	Boundaries []float64
	// BoundaryLabel is the legend text of the markers (default
	// DefaultBoundaryLabel).
	BoundaryLabel string
	// Refs are labelled horizontal reference lines.
	Refs []RefLine
}

// TimeSeries draws several series over time on one axis, e.g. the
// per-interval throughput, RTT or cwnd of the flows of a run. quantity names
// the y axis ("throughput", "smoothed RTT", "cwnd"); the unit comes from the
// series, which must all share it. Series with the same colour key (two
// flows of one CCA) get different dash patterns; NaN values leave gaps.
func TimeSeries(title, quantity string, series []Series, opt SeriesOptions) (*Figure, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("time series %q: no series", title)
	}
	unit := series[0].Unit
	for i, s := range series {
		if err := s.validate(i); err != nil {
			return nil, fmt.Errorf("time series %q: %w", title, err)
		}
		if s.Unit != unit {
			return nil, fmt.Errorf("time series %q: series %d (%s) in %q, series 0 in %q: one axis needs one unit",
				title, i, s.Name, s.Unit, unit)
		}
	}
	yLabel := quantity
	if unit != "" {
		yLabel += " (" + unit + ")"
	}
	f := newFigure(title, labelTime, yLabel)
	uses := map[string]int{}
	nonNeg := true
	for _, s := range series {
		k := CanonicalCCA(s.key())
		st := draw.LineStyle{Color: CCAColor(s.key()), Width: vg.Points(seriesWidth), Dashes: dashes(uses[k])}
		uses[k]++
		for _, seg := range segments(s.T, s.V) {
			l, err := plotter.NewLine(seg)
			if err != nil {
				return nil, fmt.Errorf("time series %q: %s: %w", title, s.Name, err)
			}
			l.LineStyle = st
			f.plot.Add(l)
		}
		f.addLegend(s.Name, lineThumb{st})
		for _, v := range s.V {
			nonNeg = nonNeg && !(v < 0)
		}
	}
	decorate(f, opt)
	if nonNeg {
		f.plot.Y.Min = 0
	}
	if f.plot.X.Min > 0 {
		f.plot.X.Min = 0 // time axes start at the run's start
	}
	headroom(f)
	return f, nil
}

// QueueOverTime draws the M/G/1 queue estimate over time (seed 000 Fig. 13),
// one series per flow or city, in packets. A saturation line (the queue at
// the utilisation cap rho_max) belongs in opt.Refs.
func QueueOverTime(title string, series []Series, opt SeriesOptions) (*Figure, error) {
	for i, s := range series {
		if s.Unit != QueueUnit {
			return nil, fmt.Errorf("queue plot %q: series %d (%s) in %q, want %q", title, i, s.Name, s.Unit, QueueUnit)
		}
	}
	return TimeSeries(title, QueueQuantity, series, opt)
}

// decorate adds boundaries and reference lines with their legend entries.
func decorate(f *Figure, opt SeriesOptions) {
	if len(opt.Boundaries) > 0 {
		b := newBoundaries(opt.Boundaries)
		f.plot.Add(b)
		label := opt.BoundaryLabel
		if label == "" {
			label = DefaultBoundaryLabel
		}
		f.addLegend(label, b)
	}
	for i, r := range opt.Refs {
		l := newHLine(r.Y, dashes(i+1))
		f.plot.Add(l)
		f.addLegend(r.Label, l)
	}
}

// segments splits a series at NaN values into runs of finite points.
func segments(t, v []float64) []plotter.XYs {
	var out []plotter.XYs
	var cur plotter.XYs
	for i := range t {
		if math.IsNaN(v[i]) {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, plotter.XY{X: t[i], Y: v[i]})
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// lineThumb is a legend thumbnail: a horizontal stroke in a line style.
type lineThumb struct{ st draw.LineStyle }

// Thumbnail implements plot.Thumbnailer.
func (l lineThumb) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(l.st, c.Min.X, y, c.Max.X, y)
}
