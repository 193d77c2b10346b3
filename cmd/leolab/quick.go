package main

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/scenario"
	"github.com/spf13/cobra"
)

// quickFlags describe a fixed dumbbell without a scenario file.
type quickFlags struct {
	rate     string
	rtt      time.Duration
	queue    int
	loss     float64
	cca      string
	flows    int
	duration time.Duration
	seed     uint64
	interval time.Duration
}

var quickNames = []string{"rate", "rtt", "queue", "loss", "cca", "flows", "duration", "seed", "interval"}

func (q *quickFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&q.rate, "rate", "100Mbps", "bottleneck rate (bps, kbps, Mbps, Gbps)")
	fl.DurationVar(&q.rtt, "rtt", 50*time.Millisecond, "base round-trip time")
	fl.IntVar(&q.queue, "queue", 0, "drop-tail queue limit in packets (0: one BDP of 1500-byte packets)")
	fl.Float64Var(&q.loss, "loss", 0, "i.i.d. random loss probability on the data path, in [0, 1)")
	fl.StringVar(&q.cca, "cca", "cubic", "congestion control (see `leolab cca list`) or cbr")
	fl.IntVar(&q.flows, "flows", 1, "number of concurrent flows, all starting at 0s")
	fl.DurationVar(&q.duration, "duration", 60*time.Second, "simulated duration")
	fl.Uint64Var(&q.seed, "seed", scenario.DefaultSeed, "random seed")
	fl.DurationVar(&q.interval, "interval", scenario.DefaultInterval, "sampling interval of the time series")
}

// changed returns the name of a quick flag given on the command line, or "".
func (q *quickFlags) changed(c *cobra.Command) string {
	for _, n := range quickNames {
		if c.Flags().Changed(n) {
			return n
		}
	}
	return ""
}

func (q *quickFlags) scenario() (*scenario.Scenario, error) {
	rate, err := profile.ParseRate(q.rate)
	if err != nil {
		return nil, badInput("sim: --rate: %v", err)
	}
	limit := q.queue
	if limit == 0 {
		// One bandwidth-delay product in 1500-byte packets.
		limit = max(1, int(rate*q.rtt.Seconds()/8/1500))
	}
	sc := &scenario.Scenario{
		Name:     fmt.Sprintf("quick-%s-%s-%v-%dx%s", q.cca, q.rate, q.rtt, q.flows, q.duration),
		Duration: q.duration,
		Seed:     q.seed,
		Interval: q.interval,
		Path: scenario.Path{
			Profile: "fixed",
			RateBps: rate,
			RTT:     q.rtt,
			Queue:   scenario.Queue{Discipline: "droptail", LimitPackets: limit},
			Loss:    q.loss,
		},
		Flows: []scenario.Flow{{CCA: q.cca, Count: q.flows}},
	}
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	return sc, nil
}
