package calibrate

import (
	"github.com/leolab/leolab/profile"
)

// DriftTie keeps each direction's per-slot rate drift in proportion to its
// maximum rate while a fit moves alloc.base or alloc.multiplier: seed 001
// gives the median slot-to-slot change only as an absolute figure (70 of
// 340 Mbit/s down, 26 of 60 Mbit/s up), and the profile refuses a median
// change above 0.586 × the maximum (slot rates would go negative), so a fit
// that lowers the uplink to ~20 Mbit/s must scale the drift with it. The
// ratio is the start profile's. It returns nil when no such parameter is
// fitted.
func DriftTie(s Space, start *profile.StarlinkProfile) func([]float64) map[string]any {
	type dir struct {
		name  string
		a     profile.Access
		ratio float64
	}
	dirs := []dir{{"downlink", start.Downlink, 0}, {"uplink", start.Uplink, 0}}
	var used []dir
	for _, d := range dirs {
		for _, p := range s {
			if p.Path == d.name+".alloc.base" || p.Path == d.name+".alloc.multiplier" {
				d.ratio = d.a.Drift.MedianRateChange / d.a.MaxRate()
				used = append(used, d)
				break
			}
		}
	}
	if len(used) == 0 {
		return nil
	}
	rate, _ := profile.StarlinkNumeric("downlink.drift.median_rate_change")
	return func(values []float64) map[string]any {
		out := map[string]any{}
		for _, d := range used {
			base, mult := d.a.Alloc.Base, d.a.Alloc.Multiplier
			for i, p := range s {
				switch p.Path {
				case d.name + ".alloc.base":
					base = values[i]
				case d.name + ".alloc.multiplier":
					mult = values[i]
				}
			}
			out[d.name+".drift.median_rate_change"] = rate.Value(d.ratio * base * mult)
		}
		return out
	}
}
