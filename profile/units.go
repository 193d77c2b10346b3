package profile

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/leolab/leolab/internal/quantity"
)

// rateUnits are the accepted rate suffixes (SI decimal prefixes, as in
// iperf3 and tc), longest first so "Mbps" is not read as "bps".
var rateUnits = [...]struct {
	suffix string
	mult   float64
}{
	{"tbit/s", 1e12}, {"gbit/s", 1e9}, {"mbit/s", 1e6}, {"kbit/s", 1e3}, {"bit/s", 1},
	{"tbps", 1e12}, {"gbps", 1e9}, {"mbps", 1e6}, {"kbps", 1e3}, {"bps", 1},
}

// ParseRate parses a bit rate with a unit ("100Mbps", "1.5Gbps", "64kbit/s")
// and returns bits/s. Units are case-insensitive; a bare number is an error
// because its unit would be a guess.
func ParseRate(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, u := range rateUnits {
		num, ok := strings.CutSuffix(t, u.suffix)
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("rate %q: %q is not a number", s, num)
		}
		// The overflow check comes after the unit: 1e300 is finite,
		// 1e300Tbps is not.
		bps, err := quantity.Scale(v, u.mult)
		if err != nil {
			return 0, fmt.Errorf("rate %q: overflows after its unit (%v)", s, err)
		}
		return bps, nil
	}
	return 0, fmt.Errorf("rate %q: missing or unknown unit (use bps, kbps, Mbps, Gbps or Tbps)", s)
}

// FormatRate prints bits/s with the largest unit that keeps the number >= 1,
// in a form ParseRate reads back exactly.
func FormatRate(bps float64) string {
	units := [...]struct {
		name string
		mult float64
	}{{"Tbps", 1e12}, {"Gbps", 1e9}, {"Mbps", 1e6}, {"kbps", 1e3}}
	for _, u := range units {
		if math.Abs(bps) >= u.mult {
			v := bps / u.mult
			if v*u.mult == bps { // exact round trip only
				return strconv.FormatFloat(v, 'f', -1, 64) + u.name
			}
		}
	}
	return strconv.FormatFloat(bps, 'f', -1, 64) + "bps"
}

// ParseDuration parses a duration exactly as time.ParseDuration does
// ("45ms", "1.333333ms", "15s", "0"), with an error that names the input.
func ParseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("duration %q: use a number with a unit (ns, us, ms, s, m, h)", s)
	}
	return d, nil
}
