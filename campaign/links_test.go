package campaign

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/leolab/leolab/scenario"
)

// A parking lot of three links (seed 002 Fig. 9b's shape, shorter): SFQ at
// every hop, one long flow and a cross flow per hop.
const linksCampaign = `version: 1
name: parking-lot
duration: 30s
runs: 2
start_jitter: 50ms
template:
  links:
    - {name: hop1, from: r0, to: r1, rate: 20Mbps, rtt: 20ms, queue: {discipline: sfq, limit_packets: 127}}
    - {name: hop2, from: r1, to: r2, rate: 40Mbps, rtt: 20ms, queue: {discipline: sfq, limit_packets: 127}}
    - {name: hop3, from: r2, to: r3, rate: 60Mbps, rtt: 20ms, queue: {discipline: sfq, limit_packets: 127}}
  flows:
    - {cca: cubic, path: [hop1, hop2, hop3]}
    - {cca: cubic, path: [hop1]}
    - {cca: cubic, path: [hop2]}
    - {cca: cubic, path: [hop3]}
axes:
  cca: [cubic, bbr3]
sweep:
  links[0].rate: [20Mbps, 30Mbps]
`

// A template's links become every run's links: the flows keep their
// routes, axes.cca sets their cca and a sweep sets a link's field.
func TestLinksTemplateExpand(t *testing.T) {
	runs := mustExpand(t, linksCampaign)
	if want := 2 * 2 * 2; len(runs) != want {
		t.Fatalf("%d runs, want %d (seeds × cca × links[0].rate)", len(runs), want)
	}
	for _, r := range runs {
		sc, err := scenario.Parse(r.Name(), []byte(r.Scenario))
		if err != nil {
			t.Fatalf("%s: %v\n%s", r.Name(), err, r.Scenario)
		}
		if strings.Contains(r.Scenario, "\npath:") || len(sc.Links) != 3 || len(sc.Flows) != 4 {
			t.Fatalf("%s: want 3 links, 4 flows and no path:\n%s", r.Name(), r.Scenario)
		}
		if got := strings.Join(sc.Flows[0].Route, ","); got != "hop1,hop2,hop3" {
			t.Errorf("%s: long flow's path %s", r.Name(), got)
		}
		for i, f := range sc.Flows {
			if f.CCA != r.CCAs[0] {
				t.Errorf("%s: flow %d cca %s, want %s", r.Name(), i, f.CCA, r.CCAs[0])
			}
		}
		want := map[string]float64{"20Mbps": 20e6, "30Mbps": 30e6}[r.Sweep[0].Value]
		if got := sc.Links[0].RateBps; got != want || sc.Links[1].RateBps != 40e6 {
			t.Errorf("%s: hop1 %g bit/s, hop2 %g, want %g and 40e6", r.Name(), got, sc.Links[1].RateBps, want)
		}
	}
}

// Run through the simulator, a topology campaign measures what the
// scenario tests do: SFQ at every hop gives the long flow its max–min
// share of hop1, 20/2 = 10 Mbit/s of link rate (goodput a few % under).
func TestLinksTemplateRuns(t *testing.T) {
	c, err := Parse("c.yaml", []byte(strings.Replace(linksCampaign, "[20Mbps, 30Mbps]", "[20Mbps]", 1)))
	if err != nil {
		t.Fatal(err)
	}
	c.Axes.CCA, c.Seeds = []string{"cubic"}, c.Seeds[:1]
	runs, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Sim{}.Run(context.Background(), runs[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Flows) != 4 {
		t.Fatalf("%d flows", len(res.Flows))
	}
	// Max–min: hop1 20 Mbit/s shared by the long flow and cross1 (10 each);
	// hop2 leaves cross2 40 − 10; hop3 leaves cross3 60 − 10. Goodput is
	// the link rate less headers (1448/1500) and the 30 s run's start.
	for i, want := range []float64{10, 10, 30, 50} {
		got := res.Flows[i].ThroughputMbps
		if got < 0.88*want || got > want {
			t.Errorf("flow %d: %.2f Mbit/s, want its max–min share %.0f less ≤ 12 %% (headers, slow start)", i, got, want)
		}
	}
}

func TestLinksTemplateErrors(t *testing.T) {
	cases := []struct{ name, from, to, field, want string }{
		{"path and links", "template:\n", "template:\n  path: {profile: fixed, rate: 10Mbps, rtt: 20ms}\n", "template.path", "not both"},
		{"sweep path", "links[0].rate:", "path.rate:", "sweep.path.rate", "sweep a link's field"},
		{"link out of range", "links[0].rate:", "links[3].rate:", "sweep.links[3].rate", "allowed: links[0]..links[2]"},
		{"links unindexed", "links[0].rate:", "links.rate:", "sweep.links.rate", "name a link by index"},
		{"starlink axis", "  cca: [cubic, bbr3]", "  cca: [cubic, bbr3]\n  city: [london]", "axes.city", "not to links"},
		{"not a list", "  links:\n", "  links: hop1\n  xlinks:\n", "template.links", "non-empty list"},
		{"unknown link field", "rate: 40Mbps", "rat: 40Mbps", "", "rat"},
		{"unknown route", "path: [hop2]}", "path: [hop9]}", "", "hop9"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := strings.Replace(linksCampaign, tc.from, tc.to, 1)
			if body == linksCampaign {
				t.Fatalf("replacement %q not found", tc.from)
			}
			c, err := Parse("l.yaml", []byte(body))
			if err == nil {
				_, err = c.Expand()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one with %q", err, tc.want)
			}
			var ce *Error
			if tc.field != "" && (!errors.As(err, &ce) || ce.Field != tc.field || ce.Line == 0) {
				t.Errorf("got %q, want a campaign *Error at field %q with a line", err, tc.field)
			}
		})
	}
	// A links sweep on a path template.
	body := strings.Replace(sweepCampaign, "path.queue.discipline:", "links[0].rate:", 1)
	if _, err := Parse("s.yaml", []byte(body)); err == nil || !strings.Contains(err.Error(), "template has a path, not links") {
		t.Errorf("links sweep on a path template: %v", err)
	}
}
