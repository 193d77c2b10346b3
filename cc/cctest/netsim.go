package cctest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

// The fixed-link acceptance path (issue 5, acceptance 2): one flow alone
// on a fixed 50 Mbit/s, 60 ms path with a one-BDP drop-tail buffer.
const (
	acceptMbps  = 50
	acceptRTT   = 60 * time.Millisecond
	acceptLimit = 250 // packets of 1500 B: 50 Mbit/s × 60 ms = 375 kB = 250 packets
	acceptFor   = 60 * time.Second
	acceptShare = 0.8 // the flow must use at least 80% of the link
	// acceptQueue: a delay-based controller (Copa, Vegas) must keep its
	// mean queueing delay under 20% of the base RTT.
	acceptQueue = 0.2
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
	_, spec, err := scenario.ParseSpec("inline.yaml", []byte(yaml))
	if err != nil {
		return nil, nil, fmt.Errorf("cctest: %w", err)
	}
	res, err := netsim.Run(spec)
	if err != nil {
		return nil, nil, fmt.Errorf("cctest: %w", err)
	}
	return res, &spec, nil
}

// FixedLink runs cca alone through the simulator on the fixed-link
// acceptance path (50 Mbit/s, 60 ms, a one-BDP drop-tail buffer of 250
// packets, 60 s), logs its figures and fails t unless the flow uses at
// least 80% of the link. It returns the flow for further checks.
func FixedLink(t testing.TB, cca string) result.Flow {
	t.Helper()
	res, err := Dumbbell{Name: "acceptance-" + cca, Mbps: acceptMbps, RTT: acceptRTT, Limit: acceptLimit,
		Duration: acceptFor, CCAs: []string{cca}}.Run()
	if err != nil {
		t.Fatal(err)
	}
	f := res.Flows[0]
	t.Logf("%s: %.2f Mbit/s, %d retransmits, RTT min %.1f mean %.1f p95 %.1f ms",
		cca, f.ThroughputMbps, f.Retransmits, f.MinRTTMs, f.MeanRTTMs, f.P95RTTMs)
	if f.ThroughputMbps < acceptShare*acceptMbps {
		t.Errorf("throughput %.2f Mbit/s < %.0f%% of %d", f.ThroughputMbps, 100*acceptShare, acceptMbps)
	}
	return f
}

// FixedLinkLowDelay is FixedLink for a delay-based controller: it also
// fails t unless the mean queueing delay (mean − min RTT) stays under 20%
// of the 60 ms base RTT.
func FixedLinkLowDelay(t testing.TB, cca string) result.Flow {
	t.Helper()
	f := FixedLink(t, cca)
	if q, base := f.MeanRTTMs-f.MinRTTMs, acceptRTT.Seconds()*1e3; q > acceptQueue*base {
		t.Errorf("mean queueing delay %.1f ms ≥ %.0f%% of the %.0f ms base RTT", q, 100*acceptQueue, base)
	}
	return f
}
