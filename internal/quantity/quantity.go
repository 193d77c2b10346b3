// Package quantity is the one check of physical quantities that every way
// into leolab shares: scenario and campaign files, profile overrides, CLI
// flags, wire messages and readers. A value is accepted only if it is
// finite and in range after its unit has been applied, so "1e300Tbps"
// (+Inf once multiplied) and "1e-300bps" (a packet time that overflows
// int64 nanoseconds) are refused where they are read, not where they make
// a link infinitely fast or a run allocate without bound.
//
// The functions return a message without the field's name ("1e-300bps is
// out of range (allowed: 1kbps..1Tbps)"); the caller prefixes the file and
// field, as its errors always do.
package quantity

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Shared limits. Each is wide enough for every path we model and narrow
// enough that the arithmetic done with it cannot overflow.
const (
	// MinRate: 1 kbit/s, the Starlink profile's own floor (alloc.base); a
	// 1500-byte packet already takes 12 s on the wire. Far below, at
	// 1e-300 bit/s, a packet's time overflows a time.Duration.
	MinRate = 1e3
	// MaxRate: 1 Tbit/s, the fixed profile's ceiling (a 1500-byte packet
	// takes 12 ns on the wire, still a count of whole nanoseconds).
	MaxRate = 1e12
	// MinInterval: time series finer than 1 ms are below the 1.333 ms TDMA
	// frame and cost one record per flow per interval (1 ns asked for 10⁹
	// records per second and ran out of memory).
	MinInterval = time.Millisecond
	// MaxDelay bounds an RTT or an added delay: 10 minutes is far beyond a
	// geostationary path (~600 ms) and keeps sums of delays far from the
	// int64-nanosecond limit (292 years).
	MaxDelay = 10 * time.Minute
	// MaxDuration bounds a run's length: a week of simulated or live time;
	// the event budget (scenario) refuses what would not fit in memory
	// well before that.
	MaxDuration = 7 * 24 * time.Hour
)

// Rate checks a bit rate (bits/s) against [lo, hi].
func Rate(bps, lo, hi float64) error {
	if math.IsNaN(bps) || math.IsInf(bps, 0) || bps < lo || bps > hi {
		return fmt.Errorf("%s is out of range (allowed: %s..%s)", formatRate(bps), formatRate(lo), formatRate(hi))
	}
	return nil
}

// LinkRate checks a link's or a sender's rate against [MinRate, MaxRate].
func LinkRate(bps float64) error { return Rate(bps, MinRate, MaxRate) }

// Probability checks a loss probability: finite, in [0, 1).
func Probability(p float64) error {
	if !(p >= 0 && p < 1) { // false for NaN
		return fmt.Errorf("%s is out of range (allowed: a probability in [0, 1))", formatFloat(p))
	}
	return nil
}

// Finite checks that x is a number (not NaN, not ±Inf).
func Finite(x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("%s is not a finite number", formatFloat(x))
	}
	return nil
}

// Float checks a plain number against [lo, hi].
func Float(x, lo, hi float64) error {
	if !(x >= lo && x <= hi) { // false for NaN
		return fmt.Errorf("%s is out of range (allowed: %s..%s)", formatFloat(x), formatFloat(lo), formatFloat(hi))
	}
	return nil
}

// Duration checks d against [lo, hi].
func Duration(d, lo, hi time.Duration) error {
	if d < lo || d > hi {
		return fmt.Errorf("%v is out of range (allowed: %v..%v)", d, lo, hi)
	}
	return nil
}

// Interval checks a time series' sampling interval against
// [MinInterval, limit] (the run's duration).
func Interval(d, limit time.Duration) error {
	if d < MinInterval || d > limit {
		return fmt.Errorf("%v is out of range (allowed: %v..the duration %v)", d, MinInterval, limit)
	}
	return nil
}

// Delay checks an RTT or an added delay against [0, MaxDelay].
func Delay(d time.Duration) error { return Duration(d, 0, MaxDelay) }

// Scale multiplies a number by a unit's multiplier and fails if the
// product is not finite: the overflow check after unit conversion.
func Scale(v, mult float64) (float64, error) {
	x := v * mult
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%s × %s is not a finite number", formatFloat(v), formatFloat(mult))
	}
	return x, nil
}

// formatRate writes bits/s as people read them; kept here rather than
// taken from profile so that profile can use this package.
func formatRate(bps float64) string {
	if math.IsNaN(bps) || math.IsInf(bps, 0) {
		return formatFloat(bps) + "bps"
	}
	for _, u := range [...]struct {
		name string
		mult float64
	}{{"Tbps", 1e12}, {"Gbps", 1e9}, {"Mbps", 1e6}, {"kbps", 1e3}} {
		if math.Abs(bps) >= u.mult {
			return strconv.FormatFloat(bps/u.mult, 'g', -1, 64) + u.name
		}
	}
	return strconv.FormatFloat(bps, 'g', -1, 64) + "bps"
}

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
