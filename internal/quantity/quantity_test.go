package quantity

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestRateChecks(t *testing.T) {
	for _, tc := range []struct {
		bps  float64
		ok   bool
		want string
	}{
		{100e6, true, ""},
		{MinRate, true, ""},
		{MaxRate, true, ""},
		{1e-300, false, "1e-300bps is out of range (allowed: 1kbps..1Tbps)"},
		{math.Inf(1), false, "+Infbps is out of range"},
		{math.NaN(), false, "NaNbps is out of range"},
		{-5, false, "out of range"},
		{2e12, false, "2Tbps is out of range"},
	} {
		err := LinkRate(tc.bps)
		if (err == nil) != tc.ok {
			t.Errorf("LinkRate(%g) = %v, want ok=%v", tc.bps, err, tc.ok)
			continue
		}
		if err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LinkRate(%g) = %q, want it to contain %q", tc.bps, err, tc.want)
		}
	}
}

func TestProbabilityAndFloat(t *testing.T) {
	for _, p := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -0.1, 1} {
		if Probability(p) == nil {
			t.Errorf("Probability(%g) accepted", p)
		}
	}
	for _, p := range []float64{0, 0.5, 0.999} {
		if err := Probability(p); err != nil {
			t.Errorf("Probability(%g) = %v", p, err)
		}
	}
	if Float(math.NaN(), 0, 1) == nil || Float(2, 0, 1) == nil || Float(0.5, 0, 1) != nil {
		t.Error("Float: NaN or out of range accepted, or 0.5 in [0,1] refused")
	}
	if Finite(math.NaN()) == nil || Finite(math.Inf(-1)) == nil || Finite(1e308) != nil {
		t.Error("Finite: NaN/-Inf accepted or 1e308 refused")
	}
}

func TestDurations(t *testing.T) {
	if err := Interval(time.Nanosecond, time.Minute); err == nil || !strings.Contains(err.Error(), "allowed: 1ms") {
		t.Errorf("Interval(1ns) = %v, want a refusal naming 1ms", err)
	}
	if Interval(2*time.Minute, time.Minute) == nil {
		t.Error("an interval longer than the run accepted")
	}
	if err := Interval(time.Millisecond, time.Minute); err != nil {
		t.Errorf("Interval(1ms) = %v", err)
	}
	if Delay(-time.Millisecond) == nil || Delay(MaxDelay+1) == nil || Delay(50*time.Millisecond) != nil {
		t.Error("Delay: bounds wrong")
	}
}

func TestScaleRefusesOverflowAfterTheUnit(t *testing.T) {
	if _, err := Scale(1e300, 1e12); err == nil {
		t.Error("1e300 × 1e12 accepted: it is +Inf")
	}
	if v, err := Scale(1.5, 1e9); err != nil || v != 1.5e9 {
		t.Errorf("Scale(1.5, 1e9) = %g, %v", v, err)
	}
}
