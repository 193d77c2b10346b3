package paper003

import (
	"context"
	"errors"
	"fmt"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/paper000"
)

// Campaign is seed 003's experiment as a campaign: its four CCAs × six
// cities × downlink/uplink × dedicated/concurrent on the Starlink profile.
// A concurrent run holds one flow of each of the four at once (seed 003
// §II.B.2: BBR competing "against another three CCAs: Hybla, Cubic, and
// Vegas"). opt's CCAs are ignored.
func Campaign(opt campaign.Seed000Options) (*campaign.Campaign, error) {
	opt.CCAs = CCAs
	if opt.Runs == 0 {
		opt.Runs = QuickRuns
		if opt.Full {
			opt.Runs = FullRuns
		}
	}
	c, warnings, err := campaign.Seed000(opt)
	if err != nil {
		return nil, err
	}
	if len(warnings) > 0 {
		return nil, fmt.Errorf("paper003: %v", warnings)
	}
	c.Name = "seed003-quick"
	if opt.Full {
		c.Name = "seed003-full"
	}
	return c, nil
}

// Default sizes of the campaign (runs of 300 s, as the seed's capture
// window, §II.A). Quick: 2 runs per cell (120 runs, ~170 s of CPU as
// measured here: 3 runs took 254 s of CPU, 6.8 min of wall time on a
// machine loaded 4× over its 2 cores, ~2.2 min when they are free); full:
// the dataset's 5 runs per cell, so the simulated per-run boxes are over
// as many runs as the real ones.
const (
	QuickRuns = 2
	FullRuns  = 5
)

// SimFlows loads every flow of the stored runs. Runs missing from the
// store (failed) are skipped; other store errors are returned.
func SimFlows(ctx context.Context, st *campaign.Store, runs []campaign.Run) ([]Flow, error) {
	var out []Flow
	for _, r := range runs {
		res, err := st.Result(ctx, r.ID)
		if errors.Is(err, campaign.ErrNotStored) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if len(res.Flows) != len(r.CCAs) {
			return nil, fmt.Errorf("paper003: run %s: %d flows for %d CCAs", r.ID, len(res.Flows), len(r.CCAs))
		}
		for i, f := range res.Flows {
			out = append(out, Flow{Cell: Cell{Kind: r.Kind, Direction: r.Direction, City: r.City, CCA: r.CCAs[i]},
				Seed: r.Seed, Flow: f})
		}
	}
	return out, nil
}

// RealTraces are the three real Sydney dedicated per-second traces
// (downlink bbr and cubic, uplink bbr), embedded by package paper000.
func RealTraces() ([]Flow, error) {
	ts, err := paper000.RealTraces()
	if err != nil {
		return nil, err
	}
	out := make([]Flow, 0, len(ts))
	for _, t := range ts {
		out = append(out, Flow{Cell: Cell{Kind: t.Kind, Direction: t.Direction, City: t.City, CCA: t.CCA}, Flow: t.Flow})
	}
	return out, nil
}
