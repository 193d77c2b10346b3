package bbr

import "fmt"

// checkGains validates gain parameters shared by all versions.
func checkGains(name string, gains ...float64) error {
	for _, g := range gains {
		if !(g > 0) || g > 100 {
			return fmt.Errorf("congestion control %s: gains must be in (0, 100], got %v", name, g)
		}
	}
	return nil
}

// errBadParams reports an out-of-range knob.
func errBadParams(name string) error {
	return fmt.Errorf("congestion control %s: parameter out of range (windows, durations and counts must be positive)", name)
}
