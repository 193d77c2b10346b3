package campaign

import (
	"fmt"
	"slices"
	"strings"

	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/scenario"
)

// Validate checks the campaign's meaning and returns the first problem as an
// *Error naming the field: unknown engine, missing or empty axes, unknown
// axis values (an unregistered CCA included), axes that do not apply to the
// template's profile, and repeated seeds. Duplicate run ids are found by
// Expand.
func (c *Campaign) Validate() error {
	if c.Engine != DefaultEngine && c.Engine != EngineEmu {
		return c.fail("engine", "%q is not supported (allowed: %s, %s)", c.Engine, DefaultEngine, EngineEmu)
	}
	if c.Duration <= 0 {
		return c.fail("duration", "%v: must be > 0", c.Duration)
	}
	if err := quantity.Interval(c.Interval, c.Duration); err != nil {
		return c.fail("interval", "%v", err)
	}
	if len(c.Seeds) == 0 {
		return c.fail("seeds", "empty: give at least one seed")
	}
	if err := c.validatePath(); err != nil {
		return err
	}
	if err := c.validateAxes(); err != nil {
		return err
	}
	return c.validateSweep()
}

func (c *Campaign) validatePath() error {
	if c.Links != nil {
		return c.validateLinks()
	}
	if err := c.validateNoLinks(); err != nil {
		return err
	}
	for _, k := range []string{"city", "direction"} {
		if _, ok := c.Path[k]; ok {
			return c.fail("template.path."+k, "comes from axes.%s; remove it from the template", k)
		}
	}
	prof := c.profile()
	if !slices.Contains(scenario.Profiles, prof) {
		return c.fail("template.path.profile", "%q is not a profile (allowed: %s)", prof, strings.Join(scenario.Profiles, ", "))
	}
	if prof == "fixed" {
		for _, ax := range []struct {
			name string
			vals []string
		}{{"city", c.Axes.City}, {"direction", c.Axes.Direction}} {
			if len(ax.vals) > 0 {
				return c.fail("axes."+ax.name, "applies to profile starlink, not fixed")
			}
		}
	}
	return nil
}

// axis is one axis with its allowed values.
type axis struct {
	name    string
	vals    []string
	ok      func(string) bool
	allowed func() []string
	what    string
}

func (c *Campaign) axisList() []axis {
	in := func(list func() []string) func(string) bool {
		return func(v string) bool { return slices.Contains(list(), v) }
	}
	directions := func() []string { return scenario.Directions }
	return []axis{
		{"cca", c.Axes.CCA, Registered, allowedCCAs, "unknown congestion control"},
		{"city", c.Axes.City, in(profile.Cities), profile.Cities, "unknown city"},
		{"direction", c.Axes.Direction, in(directions), directions, "unknown direction"},
		{"kind", c.Axes.Kind, in(Kinds), Kinds, "unknown scenario kind"},
	}
}

func (c *Campaign) validateAxes() error {
	if c.Axes.CCA == nil && c.Flows == nil {
		return c.fail("axes.cca", "missing: give the congestion controls, e.g. [cubic, bbr] (or template.flows)")
	}
	if c.DatasetServers && (c.Engine != DefaultEngine || c.Flows != nil) {
		return c.fail("dataset_servers", "runs the seed-000 dataset's server limits, which need engine %s and one flow per axes.cca value (no template.flows)", DefaultEngine)
	}
	if c.Flows != nil && contains(c.Axes.Kind, Concurrent) {
		return c.fail("axes.kind", "concurrent makes one flow per cca; with template.flows the flows are the template's (allowed: dedicated)")
	}
	for _, ax := range c.axisList() {
		if ax.vals != nil && len(ax.vals) == 0 {
			return c.fail("axes."+ax.name, "empty: give at least one value")
		}
		for i, v := range ax.vals {
			if !ax.ok(v) {
				return c.fail(fmt.Sprintf("axes.%s[%d]", ax.name, i), "%s %q (allowed: %s)",
					ax.what, v, strings.Join(ax.allowed(), ", "))
			}
		}
	}
	return nil
}

// DropUnregistered removes the CCAs that are not registered (yet) and
// returns one warning per removed CCA. The built-in campaigns use it so that
// they run at every commit; campaign files are strict instead.
func (c *Campaign) DropUnregistered() []string {
	kept, warnings := []string{}, []string(nil)
	for _, v := range c.Axes.CCA {
		if Registered(v) {
			kept = append(kept, v)
			continue
		}
		warnings = append(warnings, fmt.Sprintf("campaign %s: skipping cca %q: %q is not registered", c.Name, v, RegistryName(v)))
	}
	c.Axes.CCA = kept
	return warnings
}
