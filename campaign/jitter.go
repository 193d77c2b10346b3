package campaign

import (
	"fmt"
	"strconv"
	"time"

	"github.com/leolab/leolab/sim"
)

// Start jitter: the deterministic simulator runs a fixed path the same way
// for every seed unless something random is in it (loss, a randomised
// qdisc or controller), so the runs of a cell would not differ and their
// error bars would be zero by construction. Real testbeds launch their
// flows a few milliseconds apart at random (iperf3 processes started by a
// script, Mininet hosts); `start_jitter: D` does the same from the seed:
// every flow's start is moved later by an offset drawn uniformly from
// [0, D) by the run's seed and the flow's index, so runs differ as real
// repetitions do and stay reproducible.

// maxStartJitter bounds the jitter: it models launch spread, not a
// schedule (a later start belongs in the flow's start field).
const maxStartJitter = 10 * time.Second

// jitterGrain rounds the drawn offsets so that the scenario text stays
// short (1 µs is far below any RTT).
const jitterGrain = time.Microsecond

// startOffset is flow i's jitter in run seed.
func (c *Campaign) startOffset(seed uint64, i int) time.Duration {
	if c.StartJitter <= 0 {
		return 0
	}
	r := sim.Stream(seed, "campaign/start_jitter/"+strconv.Itoa(i))
	return time.Duration(r.Int64N(int64(c.StartJitter/jitterGrain))) * jitterGrain
}

// jitterFlows adds the seed's start offsets to a run's flows.
func (c *Campaign) jitterFlows(flows []map[string]any, seed uint64) error {
	if c.StartJitter <= 0 {
		return nil
	}
	for i, f := range flows {
		var start time.Duration
		switch v := f["start"].(type) {
		case nil:
		case string:
			d, err := time.ParseDuration(v)
			if err != nil {
				return c.fail(fmt.Sprintf("template.flows[%d].start", i), "%q is not a duration (e.g. 10s)", v)
			}
			start = d
		default:
			return c.fail(fmt.Sprintf("template.flows[%d].start", i), "%v is not a duration (e.g. 10s)", v)
		}
		f["start"] = (start + c.startOffset(seed, i)).String()
	}
	return nil
}
