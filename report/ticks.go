package report

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// Tick layout. gonum's DefaultTicks aims at 3 labels and formats them with a
// fixed number of decimals ("500.00"); reports read better with about six
// labels at 1/2/2.5/5 × 10^k steps, printed with only the decimals the step
// needs (the usual "nice numbers" rule, Heckbert, Graphics Gems, 1990).
const (
	targetTicks = 6 // labelled ticks wanted on an axis
	minorPerMaj = 5 // minor ticks per major step when the step's mantissa is 1, 5
)

// niceTicker is a plot.Ticker with about targetTicks labelled ticks.
type niceTicker struct{}

var _ plot.Ticker = niceTicker{}

// Ticks implements plot.Ticker.
func (niceTicker) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	step, mant := niceStep((hi - lo) / targetTicks)
	minor := step / minorPerMaj
	if mant == 2 || mant == 2.5 {
		minor = step / 2
	}
	dec := decimals(step)
	var ticks []plot.Tick
	first := math.Ceil(lo/minor-1e-9) * minor
	for v := first; v <= hi+minor*1e-9; v += minor {
		v = math.Round(v/minor) * minor // no accumulated error
		t := plot.Tick{Value: v}
		if r := v / step; math.Abs(r-math.Round(r)) < 1e-6 {
			if math.Abs(v) < step*1e-9 {
				v = 0 // never print "-0"
			}
			t.Label = strconv.FormatFloat(v, 'f', dec, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// niceStep rounds raw up to 1, 2, 2.5 or 5 × 10^k and returns the step and
// its mantissa.
func niceStep(raw float64) (step, mant float64) {
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw*(1-1e-12) {
			return m * mag, m
		}
	}
	return 10 * mag, 10
}

// decimals is the number of decimals that print every multiple of step.
func decimals(step float64) int {
	d := 0
	for d < 12 {
		if s := step * math.Pow(10, float64(d)); math.Abs(s-math.Round(s)) < 1e-9*s {
			return d
		}
		d++
	}
	return d
}
