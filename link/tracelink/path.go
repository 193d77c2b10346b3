package tracelink

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/link/qdisc"
	"github.com/leolab/leolab/trace"
)

// Direction is one direction of a trace-driven path.
type Direction struct {
	Opportunities *trace.Opportunities
	Queue         qdisc.Config // RateBps: 0 means the trace's mean rate
	// Delays, when set, delays packets by the LeoReplayer trace; else OWD
	// is a fixed delay (Mahimahi's mm-delay), 0 for none.
	Delays *trace.Delays
	OWD    time.Duration
	// Loss is the i.i.d. loss of packets entering (Mahimahi's mm-loss).
	Loss float64
	// DelayFirst puts the delay before the queue. Mahimahi and LeoReplayer
	// nest the link shell inside the delay shell, with the application
	// (the terminal) innermost: packets towards the terminal (downlink)
	// cross the delay and then the link; packets from it (uplink) the link
	// and then the delay.
	DelayFirst bool
}

// Build returns d as one stage: loss → delay → server on the downlink
// (DelayFirst), loss → server → delay on the uplink. lossRand and
// queueRand are the loss's and the queue's own streams.
func (d Direction) Build(lossRand, queueRand *rand.Rand, drop link.DropFunc) (link.Stage, error) {
	var stages []link.Stage
	if d.Loss > 0 {
		l, err := link.NewLoss(d.Loss, lossRand, drop)
		if err != nil {
			return nil, err
		}
		stages = append(stages, l)
	}
	cfg := d.Queue
	if cfg.RateBps == 0 && d.Opportunities != nil && len(d.Opportunities.MS) > 0 {
		cfg.RateBps = d.Opportunities.MeanRateBps(trace.OpportunityBytes)
	}
	q, err := qdisc.New(cfg, queueRand, drop)
	if err != nil {
		return nil, fmt.Errorf("trace queue: %w", err)
	}
	srv, err := NewServer(d.Opportunities, trace.OpportunityBytes, q)
	if err != nil {
		return nil, err
	}
	var delay link.Stage
	switch {
	case d.Delays != nil:
		if delay, err = NewDelayLine(d.Delays); err != nil {
			return nil, err
		}
	case d.OWD > 0:
		if delay, err = link.NewDelay(d.OWD); err != nil {
			return nil, err
		}
	}
	switch {
	case delay == nil:
		stages = append(stages, srv)
	case d.DelayFirst:
		stages = append(stages, delay, srv)
	default:
		stages = append(stages, srv, delay)
	}
	if len(stages) == 1 {
		return stages[0], nil
	}
	return link.NewChain(stages...), nil
}
