package campaign

import (
	"strings"
	"time"
)

// Schema constants of the campaign file.
const (
	// Version is the campaign schema version this package reads.
	Version = 1
	// DefaultEngine runs campaigns on the deterministic simulator
	// (DESIGN.md "engines": sim is the one for sweeps and campaigns).
	DefaultEngine = "sim"
	// EngineEmu runs each run live through the emulator (root, wall-clock
	// time: one run at a time unless told otherwise).
	EngineEmu = "emu"
	// DefaultInterval is iperf3's reporting interval, as in the real dataset.
	DefaultInterval = time.Second
	// DefaultSeed is the first seed when only runs is given (scenario's default).
	DefaultSeed = 1
)

// Scenario kinds: how the CCAs of the cca axis meet the path (seed 000 §4:
// "sequential" and "competitive" runs of the dataset).
const (
	// Dedicated runs one flow alone on the path, one run per CCA.
	Dedicated = "dedicated"
	// Concurrent runs one flow per CCA of the axis at once, in one run.
	Concurrent = "concurrent"
)

// Kinds lists the scenario kinds.
func Kinds() []string { return []string{Dedicated, Concurrent} }

// Campaign is a validated campaign: a scenario template and the axes it is
// swept over.
type Campaign struct {
	File     string // where it came from ("" for a built-in campaign)
	Name     string
	Engine   string
	Duration time.Duration
	Interval time.Duration
	// Seeds gives one run per seed for every combination of the axes.
	Seeds []uint64
	// Path is the scenario template's path (profile, overrides, fixed-link
	// fields) without city and direction, which come from the axes.
	Path map[string]any
	// Flows is the template's flows (nil: one flow per axes.cca value);
	// with it, axes.cca (optional) sets every flow's cca.
	Flows []any
	// Links is the template's topology (links.go; nil: Path).
	Links []any
	Axes  Axes
	// Sweep lists the swept scenario fields, in file order (sweep.go).
	Sweep []Sweep
	// StartJitter moves every flow's start by a seed-drawn offset in
	// [0, StartJitter) (jitter.go); 0: none.
	StartJitter time.Duration
	// DatasetServers runs each cell's flows between the real dataset's
	// hosts as they were (servers.go: the egress limits of
	// DatasetServerLimits, the receive-window ceilings of DatasetRwnd,
	// and the PCC-Kernel module as "pcc"); for campaigns compared with the
	// seed-000 dataset.
	DatasetServers bool

	lines map[string]int // field path → line in File, for errors
}

// Axes are the values a campaign is swept over. City and Direction are
// empty for a fixed-profile path.
type Axes struct {
	CCA       []string // registry names or seed-000 dataset names (DatasetCCAs)
	City      []string
	Direction []string
	Kind      []string
}

// profile returns the template's path profile.
func (c *Campaign) profile() string {
	if p, ok := c.Path["profile"].(string); ok {
		return p
	}
	return ""
}

// fail makes an *Error at field, located at the field's line or, for a
// field that is absent, its parent's.
func (c *Campaign) fail(field, format string, args ...any) *Error {
	line := 0
	for f := field; f != "" && line == 0; {
		line = c.lines[f]
		i := strings.LastIndexAny(f, ".[")
		if i < 0 {
			break
		}
		f = f[:i]
	}
	return failAt(c.File, line, field, format, args...)
}
