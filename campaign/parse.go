package campaign

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leolab/leolab/scenario"
	"go.yaml.in/yaml/v3"
)

// Load reads and validates a campaign file.
func Load(file string) (*Campaign, error) {
	data, err := scenario.ReadFile(file) // the same bound as a scenario's
	var se *scenario.Error
	if errors.As(err, &se) {
		return nil, failAt(file, 0, "", "%s", se.Msg)
	}
	if err != nil {
		return nil, fmt.Errorf("campaign: %w", err)
	}
	return Parse(file, data)
}

// Parse reads and validates campaign YAML; file names it in errors. Every
// CCA must be registered (see Campaign.Validate).
func Parse(file string, data []byte) (*Campaign, error) {
	var root yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&root); err != nil {
		return nil, failAt(file, 0, "", "malformed YAML: %v", err)
	}
	d := &decoder{file: file, lines: map[string]int{}}
	c := d.campaign(&root)
	if d.err != nil {
		return nil, d.err
	}
	c.File, c.lines = file, d.lines
	resolveFiles(c.Path, file)
	for _, l := range c.Links { // links[i].delay_file, as path's
		if m, ok := l.(map[string]any); ok {
			resolveFiles(m, file)
		}
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// decoder walks the YAML tree, keeping the first error.
type decoder struct {
	file  string
	err   *Error
	lines map[string]int
}

func (d *decoder) fail(n *yaml.Node, field, format string, args ...any) {
	if d.err == nil {
		d.err = failAt(d.file, n.Line, field, format, args...)
	}
}

// fields iterates a mapping, rejecting unknown and repeated keys.
func (d *decoder) fields(n *yaml.Node, path string, allowed []string, f func(key string, v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		d.fail(n, path, "must be a mapping with fields %s", strings.Join(allowed, ", "))
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content) && d.err == nil; i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := k.Value
		if path != "" {
			name = path + "." + k.Value
		}
		switch {
		case !slices.Contains(allowed, k.Value):
			d.fail(k, name, "unknown field (allowed: %s)", strings.Join(allowed, ", "))
		case seen[k.Value]:
			d.fail(k, name, "given twice")
		default:
			seen[k.Value] = true
			d.lines[name] = k.Line
			f(k.Value, v)
		}
	}
}

func (d *decoder) scalar(n *yaml.Node, path, want string) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		d.fail(n, path, "must be %s", want)
		return ""
	}
	return n.Value
}

func (d *decoder) integer(n *yaml.Node, path string, min int64) int64 {
	s := d.scalar(n, path, "an integer")
	v, err := strconv.ParseInt(s, 10, 64)
	switch {
	case d.err != nil:
	case err != nil:
		d.fail(n, path, "%q is not an integer", s)
	case v < min:
		d.fail(n, path, "%d: must be >= %d", v, min)
	}
	return v
}

func (d *decoder) boolean(n *yaml.Node, path string) bool {
	s := d.scalar(n, path, "true or false")
	v, err := strconv.ParseBool(s)
	if d.err == nil && err != nil {
		d.fail(n, path, "%q: must be true or false", s)
	}
	return v
}

func (d *decoder) duration(n *yaml.Node, path string) time.Duration {
	s := d.scalar(n, path, "a duration such as 120s")
	v, err := time.ParseDuration(s)
	switch {
	case d.err != nil:
	case err != nil:
		d.fail(n, path, "%q is not a duration (e.g. 120s, 5m)", s)
	case v <= 0:
		d.fail(n, path, "%v: must be > 0", v)
	}
	return v
}

// list reads a sequence of scalars, recording each element's line.
func (d *decoder) list(n *yaml.Node, path string) []string {
	if n.Kind != yaml.SequenceNode {
		d.fail(n, path, "must be a list such as [a, b]")
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for i, e := range n.Content {
		f := fmt.Sprintf("%s[%d]", path, i)
		d.lines[f] = e.Line
		out = append(out, d.scalar(e, f, "a name"))
	}
	if len(out) == 0 && d.err == nil {
		d.fail(n, path, "empty: give at least one value")
	}
	return out
}

// maxRuns bounds runs (seeds per cell): the paper uses 10; a thousand times
// that is a typo, not a campaign.
const maxRuns = 10000

var topFields = []string{"version", "name", "engine", "duration", "interval", "runs", "seed", "seeds", "template", "axes", "sweep", "start_jitter", "dataset_servers"}

func (d *decoder) campaign(root *yaml.Node) *Campaign {
	c := &Campaign{Engine: DefaultEngine, Interval: DefaultInterval}
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		d.fail(root, "", "empty campaign (needs version, duration, axes)")
		return c
	}
	doc := root.Content[0]
	have := map[string]bool{}
	runs, first := int64(1), int64(DefaultSeed)
	d.fields(doc, "", topFields, func(k string, v *yaml.Node) {
		have[k] = true
		switch k {
		case "version":
			if ver := d.integer(v, k, 0); d.err == nil && ver != Version {
				d.fail(v, k, "%d is not supported (allowed: %d)", ver, Version)
			}
		case "name":
			c.Name = d.scalar(v, k, "a string")
		case "engine":
			c.Engine = d.scalar(v, k, "an engine name")
		case "duration":
			c.Duration = d.duration(v, k)
		case "interval":
			c.Interval = d.duration(v, k)
		case "runs":
			if runs = d.integer(v, k, 1); d.err == nil && runs > maxRuns {
				d.fail(v, k, "%d: at most %d runs per cell", runs, maxRuns)
			}
		case "seed":
			first = d.integer(v, k, 0)
		case "seeds":
			c.Seeds = d.seeds(v)
		case "template":
			c.Path, c.Flows, c.Links = d.template(v)
		case "axes":
			c.Axes = d.axes(v)
		case "sweep":
			c.Sweep = d.sweep(v)
		case "dataset_servers":
			c.DatasetServers = d.boolean(v, k)
		case "start_jitter":
			if c.StartJitter = d.duration(v, k); d.err == nil && c.StartJitter > maxStartJitter {
				d.fail(v, k, "%v: at most %v (a later start belongs in the flow's start)", c.StartJitter, maxStartJitter)
			}
		}
	})
	for _, req := range []string{"version", "duration", "axes"} {
		if d.err == nil && !have[req] && (req != "axes" || c.Flows == nil) {
			d.fail(doc, req, "missing")
		}
	}
	if d.err == nil && have["seeds"] && (have["runs"] || have["seed"]) {
		d.fail(doc, "seeds", "give either seeds or runs/seed, not both")
	}
	if !have["seeds"] && d.err == nil {
		for i := range runs {
			c.Seeds = append(c.Seeds, uint64(first+i))
		}
	}
	if c.Path == nil && c.Links == nil {
		c.Path = map[string]any{"profile": "starlink"}
	}
	return c
}

func (d *decoder) seeds(n *yaml.Node) []uint64 {
	var out []uint64
	for i, s := range d.list(n, "seeds") {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil && d.err == nil {
			d.fail(n.Content[i], fmt.Sprintf("seeds[%d]", i), "%q is not a seed (an integer >= 0)", s)
		}
		out = append(out, v)
	}
	return out
}

func (d *decoder) template(n *yaml.Node) (map[string]any, []any, []any) {
	path := map[string]any{}
	var flows, links []any
	d.fields(n, "template", []string{"path", "links", "flows"}, func(k string, v *yaml.Node) {
		switch k {
		case "flows":
			flows = d.templateFlows(v)
			return
		case "links":
			links = d.templateLinks(v)
			return
		}
		if v.Kind != yaml.MappingNode {
			d.fail(v, "template.path", "must be a mapping such as {profile: starlink}")
			return
		}
		if err := v.Decode(&path); err != nil {
			d.fail(v, "template.path", "%v", err)
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			d.lines["template.path."+v.Content[i].Value] = v.Content[i].Line
		}
	})
	if links != nil && len(path) == 0 {
		path = nil
	}
	return path, flows, links
}

// templateFlows reads template.flows: a list of scenario flows, checked
// with the run's scenario (Expand).
func (d *decoder) templateFlows(v *yaml.Node) []any {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		d.fail(v, "template.flows", "must be a non-empty list of flows such as [{cca: cubic}, {cca: cubic, extra_rtt: 50ms}]")
		return nil
	}
	if len(v.Content) > scenario.MaxFlows {
		d.fail(v, "template.flows", "%d entries: at most %d", len(v.Content), scenario.MaxFlows)
		return nil
	}
	var flows []any
	if err := v.Decode(&flows); err != nil {
		d.fail(v, "template.flows", "%v", err)
		return nil
	}
	for i, e := range v.Content {
		d.lines[fmt.Sprintf("template.flows[%d]", i)] = e.Line
		if _, ok := flows[i].(map[string]any); !ok {
			d.fail(e, fmt.Sprintf("template.flows[%d]", i), "must be a mapping such as {cca: cubic}")
			return nil
		}
	}
	return flows
}

func (d *decoder) axes(n *yaml.Node) Axes {
	var a Axes
	d.fields(n, "axes", []string{"cca", "city", "direction", "kind"}, func(k string, v *yaml.Node) {
		vals := d.list(v, "axes."+k)
		switch k {
		case "cca":
			a.CCA = vals
		case "city":
			a.City = vals
		case "direction":
			a.Direction = vals
		case "kind":
			a.Kind = vals
		}
	})
	return a
}
