package campaign

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/scenario"
)

// Sizes of the built-in seed-000 campaign.
const (
	// FullRuns and FullDuration are the paper's: ten 300 s iperf3 runs per
	// (scenario, city, CCA) (seed 000 §3, "Experimental setup").
	FullRuns     = 10
	FullDuration = 300 * time.Second
	// QuickRuns and QuickDuration size `leolab reproduce --quick` to finish
	// within ~10 minutes on 2 cores: one run of the paper's length per cell,
	// 120 runs (108 dedicated + 12 concurrent). Measured on the 2-core
	// development machine, shared with other jobs: 3 min 10 s.
	QuickRuns     = 1
	QuickDuration = 300 * time.Second
)

// Seed000Options size and restrict the built-in campaign. Zero values mean
// the whole study.
type Seed000Options struct {
	Full       bool
	Runs       int           // 0: QuickRuns or FullRuns
	Duration   time.Duration // 0: QuickDuration or FullDuration
	CCAs       []string      // nil: the dataset's nine (DatasetNames)
	Cities     []string      // nil: all six
	Directions []string      // nil: downlink and uplink
	Kinds      []string      // nil: dedicated and concurrent
}

// Seed000 is the seed-000 study as a campaign: nine CCAs × six cities ×
// downlink/uplink × dedicated/concurrent × runs on the Starlink profile.
// CCAs that are not registered yet are dropped with one warning each, so the
// campaign runs at every stage of the library.
func Seed000(opt Seed000Options) (*Campaign, []string, error) {
	name, runs, dur := "seed000-quick", QuickRuns, QuickDuration
	if opt.Full {
		name, runs, dur = "seed000-full", FullRuns, FullDuration
	}
	if opt.Runs > 0 {
		runs = opt.Runs
	}
	if opt.Duration > 0 {
		dur = opt.Duration
	}
	c := &Campaign{
		Name: name, Engine: DefaultEngine, Duration: dur, Interval: DefaultInterval,
		Path: map[string]any{"profile": profile.NameStarlink}, DatasetServers: true,
		Axes: Axes{
			CCA:       orDefault(opt.CCAs, DatasetNames()),
			City:      orDefault(opt.Cities, profile.Cities()),
			Direction: orDefault(opt.Directions, scenario.Directions),
			Kind:      orDefault(opt.Kinds, Kinds()),
		},
	}
	for i := range runs {
		c.Seeds = append(c.Seeds, uint64(DefaultSeed+i))
	}
	warnings := c.DropUnregistered()
	if err := c.Validate(); err != nil {
		return nil, warnings, fmt.Errorf("built-in campaign %s: %w", name, err)
	}
	return c, warnings, nil
}

func orDefault(v, def []string) []string {
	if len(v) == 0 {
		return def
	}
	return v
}
