package profile

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestStarlinkDefaults(t *testing.T) {
	sp, err := Starlink("", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The seed-001 numbers of DESIGN.md's Starlink table.
	checks := []struct {
		name      string
		got, want float64
	}{
		{"downlink.queue.limit_packets", float64(sp.Downlink.Queue.LimitPackets), 1500},
		{"uplink.queue.limit_packets", float64(sp.Uplink.Queue.LimitPackets), 4000},
		{"downlink.alloc.base", sp.Downlink.Alloc.Base, 100e6},
		{"uplink.alloc.base", sp.Uplink.Alloc.Base, 30e6},
		{"downlink max rate", sp.Downlink.MaxRate(), 340e6},
		{"uplink max rate", sp.Uplink.MaxRate(), 60e6},
		{"downlink.outage.duration", sp.Downlink.Outage.Duration.Seconds(), 0.045},
		{"uplink.outage.duration", sp.Uplink.Outage.Duration.Seconds(), 0.068},
		{"downlink.base_owd", sp.Downlink.BaseOWD.Seconds(), 0.013},
		{"uplink.base_owd", sp.Uplink.BaseOWD.Seconds(), 0.017},
		{"downlink.random_loss", sp.Downlink.RandomLoss, 0.0003},
		{"uplink.random_loss", sp.Uplink.RandomLoss, 0.0002},
		{"downlink.drift.median_rate_change", sp.Downlink.Drift.MedianRateChange, 70e6},
		{"uplink.drift.median_rate_change", sp.Uplink.Drift.MedianRateChange, 26e6},
		{"reconfig.period", sp.Reconfig.Period.Seconds(), 15},
		{"reconfig.offset", sp.Reconfig.Offset.Seconds(), 12},
		{"tdma.frame", float64(sp.TDMA.Frame), float64(time.Second / 750)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
}

func TestCityRTTs(t *testing.T) {
	// DESIGN.md "Terrestrial legs": minimum end-to-end RTTs.
	want := map[string]time.Duration{
		"sydney": 26 * time.Millisecond, "tokyo": 144 * time.Millisecond, "mumbai": 156 * time.Millisecond,
		"ohio": 212 * time.Millisecond, "london": 249 * time.Millisecond, "saopaulo": 383 * time.Millisecond,
	}
	if got := Cities(); len(got) != len(want) {
		t.Fatalf("Cities() = %v, want the six of DESIGN.md", got)
	}
	for city, rtt := range want {
		sp, err := Starlink(city, nil)
		if err != nil {
			t.Fatal(err)
		}
		idle := sp.Downlink.BaseOWD + sp.Uplink.BaseOWD + 2*sp.Terrestrial.OneWay
		if d := idle - rtt; d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("%s: idle RTT %v, want %v", city, idle, rtt)
		}
		if got, _ := CityIdleRTT(city); got != rtt {
			t.Errorf("CityIdleRTT(%s) = %v, want %v", city, got, rtt)
		}
	}
}

func TestOverrides(t *testing.T) {
	sp, err := Starlink("ohio", map[string]any{
		"downlink.queue.limit_packets": 1000,
		"uplink.alloc.base":            "40Mbps",
		"reconfig.rtt_steps":           map[string]any{"enabled": true, "magnitudes": "10ms, 20ms"},
		"downlink.queue.isolation":     "false",
		"downlink.aqm.per_flow":        false,
	})
	if err != nil {
		t.Fatal(err)
	}
	if sp.Downlink.Queue.LimitPackets != 1000 || sp.Uplink.Alloc.Base != 40e6 || sp.Downlink.Queue.Isolation ||
		!sp.Reconfig.RTTSteps.Enabled || len(sp.Reconfig.RTTSteps.Magnitudes) != 2 {
		t.Errorf("overrides not applied: %+v", sp)
	}
	if sp.Terrestrial.OneWay != 96*time.Millisecond {
		t.Errorf("city leg lost under overrides: %v", sp.Terrestrial.OneWay)
	}
}

// Acceptance 8: bad values give errors naming the parameter path and the
// allowed range.
func TestBadValues(t *testing.T) {
	cases := []struct {
		city      string
		ov        map[string]any
		wantParts []string
	}{
		{"", map[string]any{"downlink.alloc.base": "-5Mbps"}, []string{"downlink.alloc.base", "1kbps..100Gbps"}},
		{"", map[string]any{"uplink.alloc.multiplier": 0.5}, []string{"uplink.alloc.multiplier", "1..100"}},
		{"atlantis", nil, []string{"city", "atlantis", "sydney"}},
		{"", map[string]any{"downlink.queue.limt_packets": 5}, []string{"unknown parameter", "downlink.queue.limt_packets"}},
		{"", map[string]any{"downlink.queue.limit_packets": 1.5}, []string{"downlink.queue.limit_packets", "integer", "1..1e+06"}},
		{"", map[string]any{"downlink.outage.duration": 45}, []string{"downlink.outage.duration", "unit"}},
		{"", map[string]any{"uplink.aqm.mode": "codel"}, []string{"uplink.aqm.mode", "adaptive, linear, off"}},
		{"", map[string]any{"reconfig.offset": "20s"}, []string{"reconfig.offset", "0s..reconfig.period"}},
		{"", map[string]any{"downlink.drift.median_rate_change": "300Mbps"}, []string{"downlink.drift.median_rate_change", "0bps.."}},
		{"", map[string]any{"uplink.alloc.demand_low": 0.95}, []string{"uplink.alloc.demand_low", "0..alloc.demand_high 0.9"}},
		{"", map[string]any{"downlink.aqm.target_low": 0.9}, []string{"downlink.aqm.target_low", "0..aqm.target_high"}},
		{"", map[string]any{"uplink.aqm.avg_time": "100ms"}, []string{"uplink.aqm.avg_time", "per_flow", "0s"}},
		// issue 18: overflow after the unit, NaN and Inf are refused with the range
		{"", map[string]any{"downlink.alloc.base": "1e300Tbps"}, []string{"downlink.alloc.base", "overflows after its unit", "1kbps..100Gbps"}},
		{"", map[string]any{"downlink.alloc.base": "1e-300bps"}, []string{"downlink.alloc.base", "out of range", "1kbps..100Gbps"}},
		{"", map[string]any{"downlink.random_loss": math.NaN()}, []string{"downlink.random_loss", "out of range", "0..0.5"}},
		{"", map[string]any{"uplink.alloc.multiplier": math.Inf(1)}, []string{"uplink.alloc.multiplier", "1..100"}},
	}
	for _, c := range cases {
		_, err := Starlink(c.city, c.ov)
		if err == nil {
			t.Errorf("Starlink(%q, %v) accepted bad input", c.city, c.ov)
			continue
		}
		for _, part := range c.wantParts {
			if !strings.Contains(err.Error(), part) {
				t.Errorf("Starlink(%q, %v) error %q lacks %q", c.city, c.ov, err, part)
			}
		}
	}
}

func TestShowRoundTrip(t *testing.T) {
	for _, city := range append([]string{""}, Cities()...) {
		out, err := Show(NameStarlink, city)
		if err != nil {
			t.Fatal(err)
		}
		back, err := LoadStarlink([]byte(out), "", nil)
		if err != nil {
			t.Fatalf("city %q: shown YAML does not load: %v\n%s", city, err, out)
		}
		orig, _ := Starlink(city, nil)
		back.City = orig.City
		if back.YAML() != orig.YAML() {
			t.Errorf("city %q: round trip differs:\n%s\nvs\n%s", city, back.YAML(), orig.YAML())
		}
	}
	out, err := Show(NameFixed, "")
	if err != nil || !strings.Contains(out, "discipline: droptail") || !strings.Contains(out, "rate: 100Mbps") {
		t.Errorf("Show(fixed) = %q, %v", out, err)
	}
	if _, err := Show("mahimahi", ""); err == nil || !strings.Contains(err.Error(), "fixed, starlink") {
		t.Errorf("Show(unknown) error = %v", err)
	}
}

func TestFixed(t *testing.T) {
	fp, err := Fixed(map[string]any{"rate": "50Mbps", "queue.discipline": "headdrop"})
	if err != nil {
		t.Fatal(err)
	}
	if fp.Rate != 50e6 || fp.RTT != 50*time.Millisecond || fp.Queue.Discipline != "headdrop" || fp.Queue.LimitPackets != 417 {
		t.Errorf("Fixed = %+v", fp)
	}
	if _, err := Fixed(map[string]any{"loss": 1.5}); err == nil || !strings.Contains(err.Error(), "loss") {
		t.Errorf("Fixed(loss 1.5) error = %v", err)
	}
}

// starlink-seed001 is seed 001's dish with a city's terrestrial leg only;
// starlink is the Melbourne dish: the site block (fitted uplink, site
// OWDs) applies with a city, and without one both are seed 001's values.
func TestStarlinkSeed001Profile(t *testing.T) {
	seed, err := StarlinkNamed(NameStarlinkSeed001, "london", nil)
	if err != nil {
		t.Fatal(err)
	}
	site, err := StarlinkNamed(NameStarlink, "london", nil)
	if err != nil {
		t.Fatal(err)
	}
	bare, err := Starlink("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if seed.Name != NameStarlinkSeed001 || site.Name != NameStarlink {
		t.Errorf("names %q, %q", seed.Name, site.Name)
	}
	if seed.Uplink.Alloc.Base != bare.Uplink.Alloc.Base || seed.Uplink.Alloc.Base != 30e6 {
		t.Errorf("seed 001 uplink base %g, want seed 001's 30 Mbit/s", seed.Uplink.Alloc.Base)
	}
	if seed.Downlink.BaseOWD != 13*time.Millisecond || seed.Uplink.BaseOWD != 17*time.Millisecond {
		t.Errorf("seed 001 OWDs %v/%v, want 13/17 ms", seed.Downlink.BaseOWD, seed.Uplink.BaseOWD)
	}
	if seed.Terrestrial.OneWay != site.Terrestrial.OneWay || seed.Terrestrial.OneWay == 0 {
		t.Errorf("terrestrial legs %v and %v, want London's in both", seed.Terrestrial.OneWay, site.Terrestrial.OneWay)
	}
	// The site's uplink allows ~20 Mbit/s (issue 17: the BBR family's
	// 19.5–22 Mbit/s 5-run means in every city).
	if r := site.Uplink.MaxRate(); r < 19e6 || r > 22e6 {
		t.Errorf("site uplink max rate %g, want ~20 Mbit/s", r)
	}
	if _, err := StarlinkNamed("fixed", "", nil); err == nil || !strings.Contains(err.Error(), NameStarlinkSeed001) {
		t.Errorf("fixed as a Starlink profile: %v", err)
	}
	if _, err := Show(NameStarlinkSeed001, "sydney"); err != nil {
		t.Errorf("show: %v", err)
	}
}
