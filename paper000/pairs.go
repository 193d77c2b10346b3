package paper000

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/campaign"
)

// Fig. 15's experiment (seed 000 §two-flow): two BBRv3 flows from Sydney
// over the Starlink downlink, started together or the second 30 s later.
const (
	// PairStagger is the seed's offset of the second flow.
	PairStagger = 30 * time.Second
	// DefaultPairDuration keeps the ten extra runs short beside the main
	// campaign (~5 s of one core each); the seed does not give the length
	// of its two-flow runs (its other runs are 300 s).
	DefaultPairDuration = 120 * time.Second
	// DefaultPairSeeds is issue 20's "≥ 5 seeds" for the spread.
	DefaultPairSeeds = 5
	pairSimultaneous = "pair-simultaneous"
	pairStaggered    = "pair-staggered"
)

// pairModes are the two arrival patterns, with the second flow's start.
var pairModes = []struct {
	kind  string
	start time.Duration
}{{pairSimultaneous, 0}, {pairStaggered, PairStagger}}

// PairRuns are the Fig. 15 runs: both arrival patterns for seeds
// 1..seeds, each dur long (the staggered second flow gets dur − 30 s).
func PairRuns(seeds int, dur time.Duration) ([]campaign.Run, error) {
	if seeds < 1 || dur <= PairStagger {
		return nil, fmt.Errorf("paper000: two-flow runs: %d seeds, %v: want ≥ 1 seed and a duration over %v", seeds, dur, PairStagger)
	}
	var out []campaign.Run
	for _, m := range pairModes {
		for seed := uint64(1); seed <= uint64(seeds); seed++ {
			name := fmt.Sprintf("%s-downlink-sydney-bbr3-s%d", m.kind, seed)
			text := fmt.Sprintf(`version: 1
name: %s
duration: %s
seed: %d
interval: 1s
path:
    city: sydney
    direction: downlink
    profile: starlink
flows:
    - cca: bbr3
    - cca: bbr3
      start: %s
`, name, dur, seed, m.start)
			r, err := campaign.NewRun(campaign.DefaultEngine, m.kind, "sydney", "downlink", []string{bbr, bbr}, seed, text)
			if err != nil {
				return nil, fmt.Errorf("paper000: %w", err)
			}
			out = append(out, r)
		}
	}
	return out, nil
}
