package calibrate

import (
	"context"
	"fmt"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/profile"
)

// Forward is the forward model: the seed-000 experiment (each CCA alone and
// all at once, per city and direction) as a campaign on the simulator, over
// the Starlink profile with the candidate's overrides.
type Forward struct {
	// Profile is the Starlink profile the candidates override
	// (profile.NameStarlink when empty).
	Profile string
	// Axes of the experiment (campaign names: cities in lower case, CCAs
	// by dataset name).
	CCAs, Cities, Directions, Kinds []string
	Seeds                           []uint64
	Duration                        time.Duration
	// Fixed are overrides applied under every candidate (e.g. parameters
	// tied to fitted ones); the candidate's own values win.
	Fixed map[string]any
	// DatasetServers runs each cell from the real dataset's server as it
	// was (campaign.Campaign.DatasetServers): set when the measurements
	// are the built-in seed-000 dataset.
	DatasetServers bool
	Exec           campaign.Executor
	Store          *campaign.Store
	// Version is the running leolab's version (campaign.Options.Version),
	// and Stale, if set, hears how many stored runs of an evaluation
	// another version made.
	Version string
	Stale   func(n int)
	// Progress, if set, sees every finished run of an evaluation.
	Progress func(campaign.Progress)
}

// candidate is the profile a candidate's overrides run on: the profile's
// name and the overrides over Fixed (the candidate's own win).
func (f *Forward) candidate(overrides map[string]any) (string, map[string]any) {
	ov := make(map[string]any, len(f.Fixed)+len(overrides))
	for k, v := range f.Fixed {
		ov[k] = v
	}
	for k, v := range overrides {
		ov[k] = v
	}
	name := f.Profile
	if name == "" {
		name = profile.NameStarlink
	}
	return name, ov
}

// Campaign is the campaign of one candidate.
func (f *Forward) Campaign(overrides map[string]any) (*campaign.Campaign, error) {
	name, ov := f.candidate(overrides)
	path := map[string]any{"profile": name}
	if len(ov) > 0 {
		path["overrides"] = ov
	}
	c := &campaign.Campaign{
		Name: "calibrate", Engine: campaign.DefaultEngine, Duration: f.Duration, Interval: campaign.DefaultInterval,
		Seeds: f.Seeds, Path: path, DatasetServers: f.DatasetServers,
		Axes: campaign.Axes{CCA: f.CCAs, City: f.Cities, Direction: f.Directions, Kind: f.Kinds},
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// Feasible reports whether a candidate's overrides (over Fixed) make a
// valid profile of the site, without running anything.
func (f *Forward) Feasible(overrides map[string]any) error {
	name, ov := f.candidate(overrides)
	_, err := profile.StarlinkNamed(name, "", ov)
	return err
}

// Eval runs (or finds in the store) every run of the candidate and returns
// the simulated cells beside real.
func (f *Forward) Eval(ctx context.Context, overrides map[string]any, real map[campaign.Key]campaign.Metrics) ([]campaign.Row, error) {
	c, err := f.Campaign(overrides)
	if err != nil {
		return nil, err
	}
	runs, err := c.Expand()
	if err != nil {
		return nil, err
	}
	sum, err := campaign.Execute(ctx, runs, f.Store, f.Exec, campaign.Options{Progress: f.Progress, Version: f.Version})
	if err != nil {
		return nil, fmt.Errorf("forward model: %w", err)
	}
	if sum.Stale > 0 && f.Stale != nil {
		f.Stale(sum.Stale)
	}
	ids := make(map[string]bool, len(runs))
	for _, r := range runs {
		ids[r.ID] = true
	}
	flows, err := f.Store.Flows(ctx, ids)
	if err != nil {
		return nil, err
	}
	return campaign.Compare(flows, real), nil
}

// Runs is the number of runs of one evaluation.
func (f *Forward) Runs() int {
	per := 0
	for _, k := range f.Kinds {
		if k == campaign.Concurrent {
			per++
		} else {
			per += len(f.CCAs)
		}
	}
	return per * len(f.Cities) * len(f.Directions) * len(f.Seeds)
}
