package campaign

import (
	"errors"
	"strings"
	"testing"
	"time"

	_ "github.com/leolab/leolab/cc/all"
)

const okCampaign = `version: 1
name: sweep
duration: 20s
runs: 2
seed: 7
template:
  path: {profile: starlink, overrides: {downlink.queue.limit_packets: 1000}}
axes:
  cca: [cubic, bbr]
  city: [sydney, london]
  direction: [downlink, uplink]
  kind: [dedicated, concurrent]
`

func TestParseValid(t *testing.T) {
	c, err := Parse("ok.yaml", []byte(okCampaign))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "sweep" || c.Duration != 20*time.Second || c.Engine != "sim" || c.Interval != time.Second {
		t.Errorf("header: %+v", c)
	}
	if len(c.Seeds) != 2 || c.Seeds[0] != 7 || c.Seeds[1] != 8 {
		t.Errorf("seeds %v, want [7 8] from runs: 2, seed: 7", c.Seeds)
	}
	if c.profile() != "starlink" || len(c.Axes.CCA) != 2 || len(c.Axes.Kind) != 2 {
		t.Errorf("template/axes: %+v %+v", c.Path, c.Axes)
	}
}

// Bad campaign files: an *Error naming file, line and field.
func TestParseErrors(t *testing.T) {
	cases := []struct{ name, from, to, field, want string }{
		{"unknown cca", "[cubic, bbr]", "[cubic, nosuch]", "axes.cca[1]", `unknown congestion control "nosuch"`},
		{"unknown city", "[sydney, london]", "[sydney, paris]", "axes.city[1]", `unknown city "paris" (allowed: london,`},
		{"unknown direction", "[downlink, uplink]", "[down]", "axes.direction[0]", "allowed: downlink, uplink"},
		{"unknown kind", "[dedicated, concurrent]", "[dedicated, mixed]", "axes.kind[1]", "allowed: dedicated, concurrent"},
		{"empty axis", "[sydney, london]", "[]", "axes.city", "empty"},
		{"empty cca", "[cubic, bbr]", "[]", "axes.cca", "empty"},
		{"missing cca", "  cca: [cubic, bbr]\n", "", "axes.cca", "missing"},
		{"unknown axis", "  kind:", "  flavour:", "axes.flavour", "unknown field"},
		{"unknown field", "name: sweep", "name: sweep\nspeed: 3", "speed", "unknown field"},
		{"engine", "name: sweep", "name: sweep\nengine: ns3", "engine", `"ns3" is not supported`},
		{"city in template", "profile: starlink,", "profile: starlink, city: tokyo,", "template.path.city", "axes.city"},
		{"duration", "20s", "-20s", "duration", "must be > 0"},
		{"1ns interval", "duration: 20s", "duration: 20s\ninterval: 1ns", "interval", "1ns is out of range (allowed: 1ms..the duration 20s)"},
		{"runs and seeds", "runs: 2", "runs: 2\nseeds: [1]", "seeds", "not both"},
		{"too many runs", "runs: 2", "runs: 1000000000", "runs", "at most 10000"},
		{"duplicate cca", "[cubic, bbr]", "[cubic, bbr, cubic]", "axes.cca[2]", "duplicate run id"},
		{"duplicate city", "[sydney, london]", "[sydney, london, sydney]", "axes.city[2]", "duplicate run id"},
		{"duplicate seed", "runs: 2\nseed: 7", "seeds: [3, 4, 3]", "seeds[2]", "duplicate run id"},
		{"bad override", "limit_packets: 1000", "limit_packets: -5", "template", "path.overrides"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := strings.Replace(okCampaign, c.from, c.to, 1)
			if body == okCampaign {
				t.Fatalf("replacement %q not found", c.from)
			}
			camp, err := Parse("bad.yaml", []byte(body))
			if err == nil {
				_, err = camp.Expand()
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("err %v: want *Error", err)
			}
			if ce.Field != c.field || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "bad.yaml:") {
				t.Fatalf("got %q (field %q), want field %q and %q", err, ce.Field, c.field, c.want)
			}
			if ce.Line == 0 && c.field != "template" {
				t.Errorf("%q: no line number", err)
			}
		})
	}
}

func TestParseDefaults(t *testing.T) {
	c, err := Parse("min.yaml", []byte("version: 1\nduration: 5s\naxes: {cca: [reno]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Kind != Dedicated || runs[0].Seed != DefaultSeed || c.profile() != "starlink" {
		t.Fatalf("defaults: %+v", runs)
	}
	fixed := "version: 1\nduration: 5s\ntemplate: {path: {profile: fixed, rate: 10Mbps, rtt: 20ms}}\naxes: {cca: [reno], city: [sydney]}\n"
	if _, err := Parse("f.yaml", []byte(fixed)); err == nil || !strings.Contains(err.Error(), "axes.city: applies to profile starlink") {
		t.Fatalf("fixed with city: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(okCampaign))
	f.Add([]byte("version: 1\nduration: 5s\naxes: {cca: [reno]}\n"))
	f.Add([]byte("axes: [1, 2]\n"))
	f.Add([]byte(sweepCampaign))
	f.Add([]byte(linksCampaign))
	f.Add([]byte("version: 1\nduration: 5s\ntemplate: {links: [{name: a, from: x, to: y, rate: 1Mbps, rtt: 1ms}], flows: [{cca: reno}]}\nsweep: {links[0].rtt: [2ms]}\n"))
	f.Add([]byte("version: 1\nduration: 5s\ntemplate: {path: {profile: fixed, rate: 10Mbps}, flows: [{cca: reno}]}\nsweep: {path.rtt: [10ms, 20ms], path.overrides.x.y: [1]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.yaml", data)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		if c.runCount() > 500 {
			return // too many runs to expand in a fuzz iteration
		}
		if _, err := c.Expand(); err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("expand error %v is not an *Error", err)
			}
		}
	})
}
