package repro001

import (
	"fmt"
	"sort"
	"strings"

	"github.com/leolab/leolab/profile"
)

// Variant is a Starlink profile the study runs on: the default (seed 001's
// numbers) or a perturbation of it, given as profile overrides.
type Variant struct {
	Name      string
	About     string
	Overrides map[string]any
}

// Default is seed 001's profile as leolab ships it.
var Default = Variant{Name: "default", About: "the starlink profile as shipped (seed 001's numbers)"}

// Perturbed are the profiles that test the inference against values it
// cannot have learnt: every knob a procedure reads moves in one of them.
func Perturbed() []Variant {
	return []Variant{
		{
			Name:  "small-shared-30s",
			About: "DL buffer 800 packets without flow isolation, 30 s period, 60 ms DL outage, DL multiplier 2.5, UL AQM twice as steep, PoP at 400 Mbit/s",
			Overrides: map[string]any{
				"downlink.queue.limit_packets": 800,
				"downlink.aqm.max_packets":     800,
				"downlink.queue.isolation":     false,
				"reconfig.period":              "30s",
				"downlink.outage.duration":     "60ms",
				"downlink.alloc.multiplier":    2.5,
				"uplink.aqm.max_prob":          0.5,
				"pop.rate":                     "400Mbps",
			},
		},
		{
			Name:  "fast-dl-slow-ul",
			About: "boundaries at :05/:20/:35/:50, DL base 150 Mbit/s decaying over 400 ms, UL buffer 2500, UL holding 300 ms, UL multiplier 3, 90 ms UL outage, UL AQM over 500 packets, PoP at 650 Mbit/s",
			Overrides: map[string]any{
				"reconfig.offset":            "5s",
				"downlink.alloc.base":        "150Mbps",
				"downlink.alloc.decay":       "400ms",
				"uplink.queue.limit_packets": 2500,
				"uplink.alloc.hold":          "300ms",
				"uplink.alloc.multiplier":    3,
				"uplink.outage.duration":     "90ms",
				"uplink.aqm.max_packets":     500,
				"pop.rate":                   "650Mbps",
			},
		},
	}
}

// Profile resolves the variant.
func (v Variant) Profile() (*profile.StarlinkProfile, error) {
	p, err := profile.Starlink("", v.Overrides)
	if err != nil {
		return nil, fmt.Errorf("variant %s: %w", v.Name, err)
	}
	return p, nil
}

// overrides is the variant's overrides with a procedure's on top, as the
// text of a scenario's path.overrides.
func (v Variant) overrides(extra map[string]any) string {
	all := map[string]any{}
	for k, x := range v.Overrides {
		all[k] = x
	}
	for k, x := range extra {
		all[k] = x
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %v", k, all[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
