package campaign

import (
	"math"
	"slices"

	"github.com/leolab/leolab/report"
)

// MagnitudeColumns are the columns of a magnitude table (one row per kind
// and direction, MagnitudeRow) after the lead columns; with ceiling, each
// count and Spearman is followed by its noise ceiling. `reproduce`'s and
// `campaign report`'s table and `calibrate`'s share them, so the two
// reports' magnitude.csv read the same.
func MagnitudeColumns(lead []report.Column, ceiling bool) []report.Column {
	cols := append([]report.Column(nil), lead...)
	// add appends c and, with ceiling, its noise ceiling's column keyed
	// ceilingKey.
	add := func(c report.Column, ceilingKey string, ceilingDigits int) {
		cols = append(cols, c)
		if ceiling {
			cols = append(cols, report.Column{Key: ceilingKey, Title: "ceiling", Kind: report.Float, Digits: ceilingDigits})
		}
	}
	cols = append(cols,
		report.Column{Key: "direction", Title: "direction", Kind: report.Text},
		report.Column{Key: "kind", Title: "kind", Kind: report.Text},
		report.Column{Key: "cells", Title: "cells", Kind: report.Int})
	add(report.Column{Key: "throughput_within", Title: "throughput within ±25 %", Kind: report.Int}, "throughput_ceiling", 1)
	add(report.Column{Key: "retrans_within", Title: "retrans/GB within 2×", Kind: report.Int}, "retrans_ceiling", 1)
	add(report.Column{Key: "inflation_within", Title: "RTT infl. within ±15 %", Kind: report.Int}, "inflation_ceiling", 1)
	cols = append(cols, report.Column{Key: "median_abs_log", Title: "median |log ratio|", Kind: report.Float, Digits: 2})
	add(report.Column{Key: "spearman", Title: "Spearman ρ", Kind: report.Float, Digits: 2}, "spearman_ceiling", 2)
	return cols
}

// MagnitudeRow is m's row of a MagnitudeColumns table after the lead cells,
// each count next to m's noise ceiling in ceils (empty where ceils has
// none for m's kind and direction); nil ceils: a table without ceilings.
func MagnitudeRow(lead []report.Cell, m Magnitude, ceils []Ceiling) []report.Cell {
	row := append([]report.Cell(nil), lead...)
	row = append(row, report.Str(m.Direction), report.Str(m.Kind), report.Count(int64(m.Cells)))
	c := Ceiling{Throughput: math.NaN(), Retrans: math.NaN(), Inflation: math.NaN(), Rho: math.NaN()}
	if i := slices.IndexFunc(ceils, func(x Ceiling) bool { return x.Kind == m.Kind && x.Direction == m.Direction }); i >= 0 {
		c = ceils[i]
	}
	add := func(v report.Cell, ceil float64) {
		row = append(row, v)
		if ceils != nil {
			row = append(row, report.Num(ceil))
		}
	}
	add(report.Count(int64(m.ThroughputWithin)), c.Throughput)
	add(report.Count(int64(m.RetransWithin)), c.Retrans)
	add(report.Count(int64(m.InflationWithin)), c.Inflation)
	row = append(row, report.Num(m.MedianAbsLog))
	add(report.Num(m.Rho), c.Rho)
	return row
}
