package cctest

import (
	"fmt"
	"strings"
	"time"

	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

// Dumbbell is a scenario of flows that all start at 0 over one fixed-rate
// bottleneck with a drop-tail queue and no random loss, run with seed 1
// through the simulator (our transport).
type Dumbbell struct {
	Name     string        // scenario name
	Mbps     float64       // bottleneck rate, Mbit/s
	RTT      time.Duration // base round-trip time
	Limit    int           // drop-tail limit, packets
	Duration time.Duration
	Interval time.Duration // result interval; 1 s when 0
	CCAs     []string      // one flow per registered controller name
	Seed     uint64        // scenario seed; 1 when 0
}

// YAML is the scenario file of d.
func (d Dumbbell) YAML() string {
	iv := d.Interval
	if iv == 0 {
		iv = time.Second
	}
	seed := max(d.Seed, 1)
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\nname: %s\nduration: %v\nseed: %d\ninterval: %v\n", d.Name, d.Duration, seed, iv)
	fmt.Fprintf(&b, "path:\n  profile: fixed\n  rate: %gMbps\n  rtt: %v\n", d.Mbps, d.RTT)
	fmt.Fprintf(&b, "  queue: {discipline: droptail, limit_packets: %d}\n  loss: 0\nflows:\n", d.Limit)
	for _, c := range d.CCAs {
		fmt.Fprintf(&b, "  - {cca: %s, start: 0s}\n", c)
	}
	return b.String()
}

// Run runs d through the simulator. The controllers must be registered
// (import their packages).
func (d Dumbbell) Run() (*result.Result, error) {
	res, _, err := RunYAML(d.YAML())
	return res, err
}

// RunYAML parses a scenario, builds its spec and runs it through the
// simulator; it returns the result and the spec it ran.
func RunYAML(yaml string) (*result.Result, *netsim.Spec, error) {
	sc, err := scenario.Parse("inline.yaml", []byte(yaml))
	if err != nil {
		return nil, nil, fmt.Errorf("cctest: %w", err)
	}
	spec, err := sc.Spec()
	if err != nil {
		return nil, nil, fmt.Errorf("cctest: %w", err)
	}
	res, err := netsim.Run(spec)
	if err != nil {
		return nil, nil, fmt.Errorf("cctest: %w", err)
	}
	return res, &spec, nil
}
