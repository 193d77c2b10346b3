package campaign

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/leolab/leolab/scenario"
	"go.yaml.in/yaml/v3"
)

// A sweep is a campaign's axes over any scenario field or profile
// parameter: `sweep: {flows[1].extra_rtt: [50ms, 100ms], path.queue.discipline:
// [fq_codel, cake]}`. Each key is a field path in the scenario file (the run's
// scenario, built from the template), each value a list; the campaign runs
// the product of the lists. Under path.overrides the rest of the key is one
// profile parameter (profile parameters are dotted themselves:
// path.overrides.downlink.queue.limit_packets).

// Sweep is one swept field: its path in the scenario and its values.
type Sweep struct {
	Key    string
	Values []any    // decoded YAML values, set into the scenario as they are
	Labels []string // the values as written, for run names and reports
	steps  []step
}

// Setting is one swept field's value in one run.
type Setting struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// step is one element of a field path: a mapping key or a list index.
type step struct {
	key   string
	index int // -1 for a mapping key
}

// maxSweepValues bounds one sweep list: campaigns of the paper's size
// sweep a handful of values; a thousand is a typo or a generated file.
const maxSweepValues = 1000

// sweepRoots are the scenario fields a sweep may set: version and name
// belong to the campaign, seed comes from its seeds.
var sweepRoots = []string{"duration", "interval", "epoch_utc", "path", "links", "flows"}

var stepRE = regexp.MustCompile(`^([a-z_][a-z0-9_]*)((?:\[[0-9]+\])*)$`)

// parseSweepKey splits a field path such as flows[1].extra_rtt; the part
// after path.overrides. is one profile parameter.
func parseSweepKey(key string) ([]step, error) {
	rest, over := key, ""
	if i := strings.Index(key, "path.overrides."); i == 0 {
		rest, over = "path.overrides", key[len("path.overrides."):]
		if over == "" {
			return nil, errors.New("names no profile parameter after path.overrides.")
		}
	}
	var out []step
	for _, part := range strings.Split(rest, ".") {
		m := stepRE.FindStringSubmatch(part)
		if m == nil {
			return nil, fmt.Errorf("%q is not a field name (lower-case letters, digits and _, optionally indexed: flows[1])", part)
		}
		out = append(out, step{key: m[1], index: -1})
		for _, ix := range strings.Split(m[2], "]") {
			if ix == "" {
				continue
			}
			n, err := strconv.Atoi(strings.TrimPrefix(ix, "["))
			if err != nil || n > scenario.MaxFlows {
				return nil, fmt.Errorf("index %q out of range (allowed: 0..%d)", ix, scenario.MaxFlows)
			}
			out = append(out, step{index: n})
		}
	}
	if over != "" {
		out = append(out, step{key: over, index: -1})
	}
	return out, nil
}

// sweep reads the sweep mapping, recording each key's and value's line.
func (d *decoder) sweep(n *yaml.Node) []Sweep {
	if n.Kind != yaml.MappingNode {
		d.fail(n, "sweep", "must be a mapping of scenario field paths to lists, e.g. {flows[1].extra_rtt: [50ms, 100ms]}")
		return nil
	}
	var out []Sweep
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content) && d.err == nil; i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		field := "sweep." + k.Value
		d.lines[field] = k.Line
		steps, err := parseSweepKey(k.Value)
		switch {
		case seen[k.Value]:
			d.fail(k, field, "given twice")
		case err != nil:
			d.fail(k, field, "%v", err)
		case steps[0].index >= 0 || !contains(sweepRoots, steps[0].key):
			d.fail(k, field, "unknown scenario field %q (allowed: %s)", steps[0].key, strings.Join(sweepRoots, ", "))
		case v.Kind != yaml.SequenceNode || len(v.Content) == 0:
			d.fail(v, field, "must be a non-empty list of values, e.g. [50ms, 100ms]")
		case len(v.Content) > maxSweepValues:
			d.fail(v, field, "%d values: at most %d", len(v.Content), maxSweepValues)
		}
		if d.err != nil {
			break
		}
		seen[k.Value] = true
		s := Sweep{Key: k.Value, steps: steps}
		for j, e := range v.Content {
			ef := fmt.Sprintf("%s[%d]", field, j)
			d.lines[ef] = e.Line
			var val any
			if err := e.Decode(&val); err != nil {
				d.fail(e, ef, "%v", err)
				break
			}
			s.Values = append(s.Values, val)
			s.Labels = append(s.Labels, nodeLabel(e))
		}
		out = append(out, s)
	}
	return out
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// nodeLabel is a value as written: a scalar's text, or a collection in
// YAML flow style.
func nodeLabel(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	c := *n
	c.Style = yaml.FlowStyle
	b, err := yaml.Marshal(&c)
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

// maxCampaignRuns bounds the runs one campaign expands to: the full
// seed-000 study is 2 400 and seed 002's (--full) 950; a product of sweeps beyond
// this is a mistake, and expanding it would take the machine's memory.
const maxCampaignRuns = 200000

// runCount is the number of runs the campaign expands to, saturating at
// maxCampaignRuns+1.
func (c *Campaign) runCount() int {
	n := 1
	mul := func(k int) {
		if k > 0 {
			n = min(n*k, maxCampaignRuns+1) // both factors ≤ 2e5: no overflow
		}
	}
	mul(len(c.Seeds))
	mul(len(c.Axes.Kind))
	mul(len(c.Axes.Direction))
	mul(len(c.Axes.City))
	if !contains(c.Axes.Kind, Concurrent) || len(c.Axes.Kind) > 1 {
		mul(len(c.Axes.CCA))
	}
	for _, s := range c.Sweep {
		mul(len(s.Values))
	}
	return n
}

// validateSweep checks what the decoder could not: fields that other parts
// of the campaign own, repeated values and the size of the product.
func (c *Campaign) validateSweep() error {
	if n := c.runCount(); n > maxCampaignRuns {
		field := "sweep"
		if len(c.Sweep) == 0 {
			field = "axes"
		}
		return c.fail(field, "more than %d runs (seeds × axes × sweep values): split the campaign", maxCampaignRuns)
	}
	for _, s := range c.Sweep {
		f := "sweep." + s.Key
		switch {
		case s.Key == "path.city" && len(c.Axes.City) > 0, s.Key == "path.direction" && len(c.Axes.Direction) > 0:
			return c.fail(f, "comes from axes.%s; sweep one or the other", s.steps[1].key)
		case len(s.steps) == 3 && s.steps[0].key == "flows" && s.steps[2].key == "cca" && len(c.Axes.CCA) > 0:
			return c.fail(f, "the flows' cca comes from axes.cca; remove axes.cca to sweep it per flow")
		case s.steps[0].key == "flows" && c.Flows == nil:
			return c.fail(f, "needs template.flows (the flows come from axes.cca otherwise)")
		case s.steps[0].key == "flows" && (len(s.steps) < 2 || s.steps[1].index < 0):
			return c.fail(f, "name a flow by index, e.g. flows[1].extra_rtt")
		case s.steps[0].key == "flows" && s.steps[1].index >= len(c.Flows):
			return c.fail(f, "flow %d: template.flows has %d (allowed: flows[0]..flows[%d])", s.steps[1].index, len(c.Flows), len(c.Flows)-1)
		}
		seen := map[string]int{}
		for i, l := range s.Labels {
			if j, dup := seen[l]; dup {
				return c.fail(fmt.Sprintf("%s[%d]", f, i), "repeats %s[%d] (%s)", f, j, l)
			}
			seen[l] = i
		}
	}
	return nil
}

// points is the product of the sweeps, the first key outermost; one empty
// point without sweeps.
func (c *Campaign) points() [][]int {
	pts := [][]int{{}}
	for _, s := range c.Sweep {
		var next [][]int
		for _, p := range pts {
			for i := range s.Values {
				next = append(next, append(append([]int(nil), p...), i))
			}
		}
		pts = next
	}
	return pts
}

// settings are a point's values, for Run.Sweep.
func (c *Campaign) settings(pt []int) []Setting {
	if len(pt) == 0 {
		return nil
	}
	out := make([]Setting, len(pt))
	for i, j := range pt {
		out[i] = Setting{Key: c.Sweep[i].Key, Value: c.Sweep[i].Labels[j]}
	}
	return out
}

// applySweep sets a run's swept values into its scenario document.
func (c *Campaign) applySweep(doc map[string]any, r *Run) error {
	for i, set := range r.Sweep {
		s := c.Sweep[i]
		v := s.Values[indexOf(s.Labels, set.Value)]
		if err := setPath(doc, s.steps, v); err != nil {
			return c.fail("sweep."+s.Key, "%v", err)
		}
	}
	return nil
}

func indexOf(list []string, v string) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return 0
}

// setPath sets v at steps in a tree of maps and lists decoded from YAML,
// making the mappings on the way; a list index must exist.
func setPath(node any, steps []step, v any) error {
	for i, st := range steps {
		last := i == len(steps)-1
		if st.index >= 0 {
			l, ok := node.([]any)
			if !ok || st.index >= len(l) {
				return fmt.Errorf("index [%d] is not in the template", st.index)
			}
			if last {
				l[st.index] = v
				return nil
			}
			node = l[st.index]
			continue
		}
		m, ok := node.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: the template's value there is not a mapping", st.key)
		}
		if last {
			m[st.key] = v
			return nil
		}
		next, ok := m[st.key]
		if !ok {
			if steps[i+1].index >= 0 {
				return fmt.Errorf("%s is not in the template (a list to index)", st.key)
			}
			next = map[string]any{}
			m[st.key] = next
		}
		node = next
	}
	return nil
}

// deepCopy copies a YAML-decoded tree so that a run's changes stay its own.
func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// sweepError turns a run's scenario error into the campaign's: at the
// swept field that produced it (its line in the campaign file), naming the
// scenario field and what is allowed; nil when no sweep key owns it.
func (c *Campaign) sweepError(err error) *Error {
	var se *scenario.Error
	if !errors.As(err, &se) || se.Field == "" {
		return nil
	}
	for _, s := range c.Sweep {
		if se.Field == s.Key || strings.HasPrefix(se.Field, s.Key+".") || strings.HasPrefix(s.Key, se.Field+".") {
			return c.fail("sweep."+s.Key, "scenario field %s: %s", se.Field, se.Msg)
		}
	}
	return nil
}

// fileFields are the template's fields that name files: a campaign's
// relative names are resolved against its own directory, as a scenario's
// are against its.
var fileFields = [][]string{
	{"delay_file", "file"}, {"delay_file", "handover_error"},
	{"trace", "uplink"}, {"trace", "downlink"}, {"trace", "delay"},
}

// resolveFiles makes the template's relative file names absolute.
func resolveFiles(path map[string]any, campaignFile string) {
	if campaignFile == "" {
		return
	}
	dir, err := filepath.Abs(filepath.Dir(campaignFile))
	if err != nil {
		return
	}
	for _, f := range fileFields {
		m, ok := path[f[0]].(map[string]any)
		if !ok {
			continue
		}
		if name, ok := m[f[1]].(string); ok && name != "" && !filepath.IsAbs(name) {
			m[f[1]] = filepath.Join(dir, name)
		}
	}
}
