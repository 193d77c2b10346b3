package closedloop

import (
	"math"
	"strings"
	"testing"
)

// Pairing by seed: an arm equal to the reference seed by seed differs by
// exactly 0 ± 0 however much the seeds spread; an arm 5 Mbit/s above it
// on every seed differs by 5 ± 0 and is distinct; the unpaired CI of the
// means would overlap in both cases.
func TestPairedDifference(t *testing.T) {
	var s []Sample
	for seed, mbps := range []float64{100, 180, 140, 260} {
		b := Sample{Arm: ArmBBR, Seed: uint64(seed + 1), Mbps: mbps, RetransPerGB: mbps / 10, MeanRTTMs: 40}
		twin, up := b, b
		twin.Arm, up.Arm, up.Mbps = "twin", "up5", mbps+5
		s = append(s, b, twin, up)
	}
	st, err := Summarize(s, ArmBBR)
	if err != nil {
		t.Fatal(err)
	}
	get := func(arm, metric string) Stat {
		for _, x := range st {
			if x.Arm == arm && x.Metric == metric {
				return x
			}
		}
		t.Fatalf("no %s %s", arm, metric)
		return Stat{}
	}
	for _, arm := range []string{ArmBBR, "twin"} {
		for _, m := range Metrics {
			if d := get(arm, m.Name).Diff; d.Mean != 0 || d.CI != 0 || get(arm, m.Name).Distinct() {
				t.Errorf("%s %s: paired difference %g ± %g, want exactly 0 ± 0", arm, m.Name, d.Mean, d.CI)
			}
		}
	}
	u := get("up5", "throughput_mbps")
	if math.Abs(u.Diff.Mean-5) > 1e-12 || u.Diff.CI > 1e-12 || !u.Distinct() {
		t.Errorf("up5: %g ± %g (distinct %v), want 5 ± 0", u.Diff.Mean, u.Diff.CI, u.Distinct())
	}
	if b := get(ArmBBR, "throughput_mbps").Value; b.CI < 5 || math.Abs(b.Mean-170) > 1e-9 {
		t.Errorf("bbr mean %g ± %g: want 170 with a CI wider than the 5 Mbit/s shift", b.Mean, b.CI)
	}
	if _, err := Summarize(s[:len(s)-1], ArmBBR); err == nil || !strings.Contains(err.Error(), "same seeds") {
		t.Errorf("an arm missing a seed: %v", err)
	}
	if _, err := Summarize(s, "cubic"); err == nil {
		t.Error("a missing reference was accepted")
	}
}

func TestPlanValidate(t *testing.T) {
	ok := Plan{City: "sydney", Direction: "downlink", Seeds: 2, Duration: DefaultDuration, Arms: []string{ArmBBR, ArmLinear}, Ref: ArmBBR}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		edit func(*Plan)
		want string
	}{
		{func(p *Plan) { p.City = "perth" }, `--city "perth" (allowed: `},
		{func(p *Plan) { p.Direction = "up" }, "--direction"},
		{func(p *Plan) { p.Seeds = 0 }, "--seeds 0 is out of range"},
		{func(p *Plan) { p.Duration = 1 }, "--duration"},
		{func(p *Plan) { p.Arms = []string{ArmLinear} }, "must hold bbr"},
		{func(p *Plan) { p.Ref = ArmConst105 }, "must hold const105"},
		{func(p *Plan) { p.Ref = "cubic" }, `--ref "cubic"`},
		{func(p *Plan) { p.Arms = []string{ArmBBR, "cubic"} }, `--arms: "cubic"`},
		{func(p *Plan) { p.Arms = []string{ArmBBR, ArmLearned} }, "needs --model FILE"},
		{func(p *Plan) { p.Arms, p.Model = []string{ArmBBR, ArmLearned}, "/nonexistent.json" }, "--model: lmbbr model: stat /nonexistent.json"},
	} {
		p := ok
		tc.edit(&p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}
