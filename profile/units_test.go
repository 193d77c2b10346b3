package profile

import (
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	cases := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"100Mbps", 100e6, true},
		{"1.5Gbps", 1.5e9, true},
		{"64kbit/s", 64e3, true},
		{" 340 mbps ", 340e6, true},
		{"12bps", 12, true},
		{"-5Mbps", -5e6, true}, // sign is the validator's business, with the path
		{"100", 0, false},
		{"Mbps", 0, false},
		{"100MBq", 0, false},
		{"NaNMbps", 0, false},
		{"InfMbps", 0, false},
		{"1e300Tbps", 0, false},     // finite number, +Inf after the unit
		{"1e-300bps", 1e-300, true}, // finite: ranges refuse it, with the field
	}
	for _, c := range cases {
		got, err := ParseRate(c.in)
		if (err == nil) != c.ok {
			t.Errorf("ParseRate(%q) error = %v, want ok=%v", c.in, err, c.ok)
			continue
		}
		if c.ok && got != c.want {
			t.Errorf("ParseRate(%q) = %g, want %g", c.in, got, c.want)
		}
	}
}

func TestFormatRateRoundTrip(t *testing.T) {
	for _, v := range []float64{0, 1, 999, 1e3, 30e6, 100e6, 340e6, 1.5e9, 123456789, 2e12} {
		s := FormatRate(v)
		back, err := ParseRate(s)
		if err != nil || back != v {
			t.Errorf("FormatRate(%g) = %q, parses back to %g, %v", v, s, back, err)
		}
	}
	if got := FormatRate(100e6); got != "100Mbps" {
		t.Errorf("FormatRate(100e6) = %q, want 100Mbps", got)
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"45ms": 45 * time.Millisecond, "1.333333ms": 1333333, "15s": 15 * time.Second, "0": 0,
	} {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseDuration("45"); err == nil {
		t.Error("ParseDuration(\"45\") accepted a number without unit")
	}
}
