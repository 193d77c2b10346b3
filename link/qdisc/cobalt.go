package qdisc

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/packet"
)

// COBALT defaults (Linux net/sched/sch_cake.c, cake_init and
// cake_reconfigure; Høiland-Jørgensen, Taht & Morton, "Piece of CAKE",
// LANMAN 2018, §4.2).
const (
	CakeTarget   = 5 * time.Millisecond   // cparams.target (CoDel's TARGET)
	CakeInterval = 100 * time.Millisecond // cparams.interval
	// BLUE's steps, on sch_cake's 32-bit probability scale: p_inc = 1<<24
	// (1/256) on each overflow, p_dec = 1<<20 (1/4096) when a queue runs
	// empty, at most once per target.
	cobaltPInc = 1.0 / 256
	cobaltPDec = 1.0 / 4096
)

// cobaltParams are COBALT's configuration.
type cobaltParams struct {
	target, interval time.Duration
	mtuTime          time.Duration // one MTU at the link rate
}

// cobaltVars is one flow's COBALT state: CoDel's (count, dropping,
// drop_next) and BLUE's (p_drop, blue_timer).
type cobaltVars struct {
	count     int
	dropping  bool
	dropNext  time.Duration
	pDrop     float64
	blueTimer time.Duration
}

func (pr *cobaltParams) control(t time.Duration, count int) time.Duration {
	return t + time.Duration(float64(pr.interval)/math.Sqrt(float64(max(count, 1))))
}

// queueFull is cobalt_queue_full: the flow overflowed the buffer, so BLUE
// raises p_drop (at most once per target) and CoDel drops at once.
func (v *cobaltVars) queueFull(now time.Duration, pr *cobaltParams) {
	if now-v.blueTimer > pr.target {
		v.pDrop = min(1, v.pDrop+cobaltPInc)
		v.blueTimer = now
	}
	v.dropping = true
	v.dropNext = now
	if v.count == 0 {
		v.count = 1
	}
}

// queueEmpty is cobalt_queue_empty: the flow ran dry, so BLUE relaxes and
// CoDel leaves drop state, winding count down once per drop interval.
func (v *cobaltVars) queueEmpty(now time.Duration, pr *cobaltParams) {
	if v.pDrop > 0 && now-v.blueTimer > pr.target {
		v.pDrop = max(0, v.pDrop-cobaltPDec)
		v.blueTimer = now
	}
	v.dropping = false
	if v.count > 0 && now >= v.dropNext {
		v.count--
		v.dropNext = pr.control(v.dropNext, v.count)
	}
}

// verdict is what cobalt_should_drop decided for a packet.
type verdict uint8

const (
	keep verdict = iota
	codelSignal
	blueDrop
)

// shouldDrop is cobalt_should_drop for p dequeued at now with bulkFlows
// bulk flows: CoDel's drop state, entered as soon as the sojourn is above
// target (and above the time 2·bulkFlows and 4 MTUs take to serialise),
// with drops spaced by the control law; then BLUE's random drop.
func (v *cobaltVars) shouldDrop(now time.Duration, pr *cobaltParams, p *packet.Packet, bulkFlows int, rng *rand.Rand) verdict {
	sojourn := now - p.EnqueuedAt
	schedule := now - v.dropNext
	overTarget := sojourn > pr.target && sojourn > pr.mtuTime*time.Duration(2*bulkFlows) && sojourn > 4*pr.mtuTime
	nextDue := v.count > 0 && schedule >= 0
	if overTarget {
		if !v.dropping {
			v.dropping = true
			v.dropNext = pr.control(now, v.count)
		}
		if v.count == 0 {
			v.count = 1
		}
	} else if v.dropping {
		v.dropping = false
	}
	out := keep
	if nextDue && v.dropping {
		out = codelSignal
		v.count++
		v.dropNext = pr.control(v.dropNext, v.count)
		schedule = now - v.dropNext
	} else {
		for nextDue {
			v.count--
			v.dropNext = pr.control(v.dropNext, v.count)
			schedule = now - v.dropNext
			nextDue = v.count > 0 && schedule >= 0
		}
	}
	// "Simple BLUE implementation. Lack of ECN is deliberate."
	if out == keep && v.pDrop > 0 && rng.Float64() < v.pDrop {
		out = blueDrop
	}
	// "Overload the drop_next field as an activity timeout."
	if v.count == 0 {
		v.dropNext = now + pr.interval
	} else if schedule > 0 && out == keep {
		v.dropNext = now
	}
	return out
}
