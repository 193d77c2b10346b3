package campaign

import (
	"fmt"
	"strings"
	"time"

	"github.com/leolab/leolab/scenario"
	"go.yaml.in/yaml/v3"
)

// idHexDigits is the length of a run id: 64 bits of SHA-256, so that a
// collision among a campaign's few thousand runs has probability ~1e-13.
const idHexDigits = 16

// Run is one run of a campaign: the scenario an engine executes plus the
// axis values it stands for. It travels as JSON to remote workers.
type Run struct {
	ID        string   `json:"id"`
	Engine    string   `json:"engine"`
	Kind      string   `json:"kind"`
	CCAs      []string `json:"ccas"` // axis values, in flow order: one for dedicated, all for concurrent
	City      string   `json:"city,omitempty"`
	Direction string   `json:"direction,omitempty"`
	Seed      uint64   `json:"seed"`
	// Sweep is the run's point of the campaign's sweep, in sweep order.
	Sweep []Setting `json:"sweep,omitempty"`
	// Scenario is the complete scenario file (YAML, version 1).
	Scenario string `json:"scenario"`

	origin []string // the fields that produced the run, for duplicate-id errors
}

// scenarioDoc is the scenario file of one run; yaml.v3 keeps the field
// order and sorts map keys, so the text (and the id) is canonical.
type scenarioDoc struct {
	Version  int              `yaml:"version"`
	Name     string           `yaml:"name"`
	Duration string           `yaml:"duration"`
	Seed     uint64           `yaml:"seed"`
	EpochUTC string           `yaml:"epoch_utc,omitempty"`
	Interval string           `yaml:"interval"`
	Path     map[string]any   `yaml:"path,omitempty"`
	Links    []any            `yaml:"links,omitempty"`
	Flows    []map[string]any `yaml:"flows"`
}

// Expand turns the campaign into its runs, in execution order (seed by seed,
// so that a partly finished campaign already covers every combination). Every
// run's scenario is validated; a run id that occurs twice is an *Error naming
// the field that repeats.
func (c *Campaign) Expand() ([]Run, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	var runs []Run
	orNone := func(v []string) []string {
		if len(v) == 0 {
			return []string{""}
		}
		return v
	}
	kinds := c.Axes.Kind
	if len(kinds) == 0 {
		kinds = []string{Dedicated}
	}
	for si, seed := range c.Seeds {
		for ki, kind := range kinds {
			for di, dir := range orNone(c.Axes.Direction) {
				for ci, city := range orNone(c.Axes.City) {
					for _, pt := range c.points() {
						base := Run{Engine: c.Engine, Kind: kind, City: city, Direction: dir, Seed: seed,
							Sweep: c.settings(pt),
							origin: []string{fmt.Sprintf("seeds[%d]", si), fmt.Sprintf("axes.kind[%d]", ki),
								fmt.Sprintf("axes.direction[%d]", di), fmt.Sprintf("axes.city[%d]", ci)}}
						for i, j := range pt {
							base.origin = append(base.origin, fmt.Sprintf("sweep.%s[%d]", c.Sweep[i].Key, j))
						}
						runs = append(runs, c.kindRuns(base)...)
					}
				}
			}
		}
	}
	return runs, c.finish(runs)
}

// kindRuns makes the runs of one (seed, kind, direction, city).
func (c *Campaign) kindRuns(base Run) []Run {
	if c.Flows != nil && len(c.Axes.CCA) == 0 {
		r := base
		for _, f := range c.Flows {
			name, _ := f.(map[string]any)["cca"].(string)
			r.CCAs = append(r.CCAs, name)
		}
		r.origin = append(r.origin, "template.flows")
		return []Run{r}
	}
	if base.Kind == Concurrent {
		r := base
		r.CCAs = c.Axes.CCA
		r.origin = append(r.origin, "axes.cca")
		return []Run{r}
	}
	out := make([]Run, 0, len(c.Axes.CCA))
	for i, name := range c.Axes.CCA {
		r := base
		r.CCAs = []string{name}
		for range len(c.Flows) - 1 { // template flows: every one runs the axis value
			r.CCAs = append(r.CCAs, name)
		}
		r.origin = append(append([]string(nil), base.origin...), fmt.Sprintf("axes.cca[%d]", i))
		out = append(out, r)
	}
	return out
}

// finish renders every run's scenario, checks it and assigns ids.
func (c *Campaign) finish(runs []Run) error {
	seen := make(map[string]int, len(runs))
	for i := range runs {
		r := &runs[i]
		text, err := c.scenarioText(r)
		if err != nil {
			return err
		}
		sc, err := scenario.Parse(r.Name(), []byte(text))
		if err != nil {
			if se := c.sweepError(err); se != nil {
				return se
			}
			return c.fail("template", "run %s: %v", r.Name(), err)
		}
		// A campaign has no --force: a run over the budget would take
		// every worker's memory, so it is refused before any runs.
		if err := sc.CheckBudget(r.Engine == DefaultEngine); err != nil {
			return c.fail("template", "run %s: %v", r.Name(), err)
		}
		r.Scenario = text
		r.ID = runID(r.Engine, text)
		if j, dup := seen[r.ID]; dup {
			field, other := differing(r.origin, runs[j].origin)
			return c.fail(field, "duplicate run id %s (the same run as %s): remove the repeated value", r.ID, other)
		}
		seen[r.ID] = i
	}
	return nil
}

// differing returns the first field where two runs' origins differ.
func differing(a, b []string) (string, string) {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i], b[i]
		}
	}
	return a[len(a)-1], b[len(b)-1]
}

// Name is a readable name of the run, e.g. dedicated-downlink-sydney-cubic-s1.
func (r *Run) Name() string {
	parts := []string{r.Kind}
	for _, p := range []string{r.Direction, r.City} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	ccas := strings.Join(r.CCAs, "+")
	if r.Kind == Concurrent {
		ccas = fmt.Sprintf("%dccas", len(r.CCAs))
	}
	parts = append(parts, ccas)
	for _, set := range r.Sweep {
		parts = append(parts, set.Key+"="+set.Value)
	}
	parts = append(parts, fmt.Sprintf("s%d", r.Seed))
	return strings.Join(parts, "-")
}

func (c *Campaign) scenarioText(r *Run) (string, error) {
	path, _ := deepCopy(c.Path).(map[string]any)
	if r.City != "" {
		path["city"] = r.City
	}
	if r.Direction != "" {
		path["direction"] = r.Direction
	}
	doc := scenarioDoc{Version: scenario.Version, Name: r.Name(), Duration: c.Duration.String(),
		Seed: r.Seed, Interval: c.Interval.String(), Path: path}
	if c.Links != nil {
		doc.Links = deepCopy(c.Links).([]any)
	}
	if c.Flows == nil {
		for _, name := range r.CCAs {
			doc.Flows = append(doc.Flows, map[string]any{"cca": RegistryName(name)})
		}
	} else {
		for i, f := range deepCopy(c.Flows).([]any) {
			fm := f.(map[string]any)
			if len(c.Axes.CCA) > 0 {
				fm["cca"] = RegistryName(r.CCAs[i])
			}
			doc.Flows = append(doc.Flows, fm)
		}
	}
	c.limitServers(doc.Flows, r)
	if err := c.jitterFlows(doc.Flows, r.Seed); err != nil {
		return "", err
	}
	if len(r.Sweep) > 0 {
		if err := c.sweepDoc(&doc, r); err != nil {
			return "", err
		}
	}
	data, err := yaml.Marshal(&doc)
	if err != nil {
		return "", fmt.Errorf("campaign: run %s: %w", r.Name(), err)
	}
	return string(data), nil
}

// sweepDoc applies a run's sweep point to its scenario document through a
// generic tree (the swept paths are the scenario file's), then reads the
// top-level fields back so the text keeps the document's field order.
func (c *Campaign) sweepDoc(doc *scenarioDoc, r *Run) error {
	flows := make([]any, len(doc.Flows))
	for i, f := range doc.Flows {
		flows[i] = f
	}
	tree := map[string]any{"duration": doc.Duration, "interval": doc.Interval, "path": doc.Path, "flows": flows, "links": doc.Links}
	if err := c.applySweep(tree, r); err != nil {
		return err
	}
	doc.Duration, doc.Interval = fmt.Sprint(tree["duration"]), fmt.Sprint(tree["interval"])
	switch e := tree["epoch_utc"].(type) {
	case nil:
	case time.Time: // YAML decodes an unquoted instant as a timestamp
		doc.EpochUTC = e.UTC().Format(time.RFC3339Nano)
	default:
		doc.EpochUTC = fmt.Sprint(e)
	}
	return nil
}
