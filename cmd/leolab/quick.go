package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/scenario"
	"github.com/spf13/cobra"
)

// quickFlags describe a fixed dumbbell without a scenario file.
type quickFlags struct {
	link     linkFlags
	cca      string
	flows    int
	duration time.Duration
	seed     uint64
	interval time.Duration
}

var quickNames = []string{"rate", "rtt", "queue", "loss", "cca", "flows", "duration", "seed", "interval"}

func (q *quickFlags) register(c *cobra.Command) {
	q.link.register(c, "data path")
	fl := c.Flags()
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
	l := &q.link
	rate, err := profile.ParseRate(l.rate)
	if err != nil {
		return nil, badInput("sim: --rate: %v", err)
	}
	sc := &scenario.Scenario{
		Name:     fmt.Sprintf("quick-%s-%s-%v-%dx%s", q.cca, l.rate, l.rtt, q.flows, q.duration),
		Duration: q.duration,
		Seed:     q.seed,
		Interval: q.interval,
		Path: scenario.Path{
			Profile: "fixed",
			RateBps: rate,
			RTT:     l.rtt,
			Queue:   scenario.Queue{Discipline: "droptail", LimitPackets: l.queueLimit(rate)},
			Loss:    l.loss,
		},
		Flows: []scenario.Flow{{CCA: q.cca, Count: q.flows}},
	}
	if err := sc.Validate(); err != nil {
		var se *scenario.Error
		if errors.As(err, &se) {
			if flag, ok := quickFields[se.Field]; ok {
				return nil, badInput("sim: %s: %s", flag, se.Msg)
			}
		}
		return nil, err
	}
	return sc, nil
}

// quickFields names the flag behind each field of the flag form's
// scenario, for its errors.
var quickFields = map[string]string{
	"path.rate": "--rate", "path.rtt": "--rtt", "path.loss": "--loss", "path.queue.limit_packets": "--queue",
	"duration": "--duration", "interval": "--interval", "flows[0].cca": "--cca", "flows[0].count": "--flows",
	"flows": "--flows",
}
