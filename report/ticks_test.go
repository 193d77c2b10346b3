package report

import (
	"reflect"
	"testing"
)

func labels(lo, hi float64) []string {
	var out []string
	for _, t := range (niceTicker{}).Ticks(lo, hi) {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

func TestNiceTicker(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		{0, 560, []string{"0", "100", "200", "300", "400", "500"}},
		{0, 300, []string{"0", "50", "100", "150", "200", "250", "300"}},
		{1, 3.9, []string{"1.0", "1.5", "2.0", "2.5", "3.0", "3.5"}},
		{-0.3, 0.3, []string{"-0.3", "-0.2", "-0.1", "0.0", "0.1", "0.2", "0.3"}},
		{0, 15, []string{"0.0", "2.5", "5.0", "7.5", "10.0", "12.5", "15.0"}},
		{5, 5, nil},
	} {
		if got := labels(tc.lo, tc.hi); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ticks(%v, %v) = %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestNiceStep(t *testing.T) {
	for _, tc := range []struct{ raw, step float64 }{{93, 100}, {50, 50}, {0.21, 0.25}, {1.1, 2}, {7, 10}} {
		if got, _ := niceStep(tc.raw); got != tc.step {
			t.Errorf("niceStep(%v) = %v, want %v", tc.raw, got, tc.step)
		}
	}
}

func TestTicksCount(t *testing.T) {
	// Between targetTicks/2 and 2·targetTicks labels for any span.
	for _, span := range []float64{0.013, 1, 7.7, 42, 999, 12345} {
		n := len(labels(0, span))
		if n < targetTicks/2 || n > 2*targetTicks {
			t.Errorf("span %v: %d labels", span, n)
		}
	}
}
