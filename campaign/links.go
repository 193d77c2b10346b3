package campaign

import (
	"fmt"

	"github.com/leolab/leolab/scenario"
	"go.yaml.in/yaml/v3"
)

// A campaign's template may give a topology instead of a path:
// `template: {links: [...], flows: [{cca: cubic, path: [hop1, hop2]}, ...]}`
// (the scenario's links:, README "Topologies"). Every run's scenario then
// has those links and no path; sweeps may set any link field
// (links[0].queue.discipline). The links are checked with each run's
// scenario (Expand), which names the field and the allowed values.

// templateLinks reads template.links: a non-empty list of mappings.
func (d *decoder) templateLinks(v *yaml.Node) []any {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		d.fail(v, "template.links", "must be a non-empty list of links such as [{name: hop1, from: a, to: b, rate: 100Mbps, rtt: 20ms}]")
		return nil
	}
	if len(v.Content) > scenario.MaxLinks {
		d.fail(v, "template.links", "%d links: at most %d", len(v.Content), scenario.MaxLinks)
		return nil
	}
	var links []any
	if err := v.Decode(&links); err != nil {
		d.fail(v, "template.links", "%v", err)
		return nil
	}
	for i, e := range v.Content {
		d.lines[fmt.Sprintf("template.links[%d]", i)] = e.Line
		if _, ok := links[i].(map[string]any); !ok {
			d.fail(e, fmt.Sprintf("template.links[%d]", i), "must be a mapping such as {name: hop1, from: a, to: b, rate: 100Mbps, rtt: 20ms}")
			return nil
		}
	}
	return links
}

// validateLinks checks a topology template: no path beside it, flows of
// its own (each names its links), and no starlink axes.
func (c *Campaign) validateLinks() error {
	if len(c.Path) > 0 {
		return c.fail("template.path", "give path (one link) or links (a topology), not both")
	}
	if c.Flows == nil {
		return c.fail("template.links", "needs template.flows (each flow names the links it crosses)")
	}
	for _, ax := range []struct {
		name string
		vals []string
	}{{"city", c.Axes.City}, {"direction", c.Axes.Direction}} {
		if len(ax.vals) > 0 {
			return c.fail("axes."+ax.name, "applies to profile starlink, not to links")
		}
	}
	for _, s := range c.Sweep {
		switch {
		case s.steps[0].key == "path":
			return c.fail("sweep."+s.Key, "the template has links, not a path: sweep a link's field, e.g. links[0].queue.discipline")
		case s.steps[0].key == "links" && (len(s.steps) < 2 || s.steps[1].index < 0):
			return c.fail("sweep."+s.Key, "name a link by index, e.g. links[0].queue.discipline")
		case s.steps[0].key == "links" && s.steps[1].index >= len(c.Links):
			return c.fail("sweep."+s.Key, "link %d: template.links has %d (allowed: links[0]..links[%d])", s.steps[1].index, len(c.Links), len(c.Links)-1)
		}
	}
	return nil
}

// validateNoLinks rejects a links sweep on a path template.
func (c *Campaign) validateNoLinks() error {
	for _, s := range c.Sweep {
		if s.steps[0].key == "links" {
			return c.fail("sweep."+s.Key, "the template has a path, not links (give template.links to sweep a link)")
		}
	}
	return nil
}
