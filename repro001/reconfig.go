package repro001

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/profile"
)

// Light-probe parameters (seed 001 §Reconfigurations): a probe far below
// either base allocation (5.7 Mbit/s against 100 and 30 Mbit/s, finding
// 4) sees the link idle, so its delays are the path's and its gaps the
// outages. One packet per 1.4 ms, just over a frame (1.333 ms): each
// finds the queue empty, so a queue-length AQM (the uplink's is linear
// from 0 packets, finding 9) never drops it and its loss is the idle
// path's (finding 24). 250 s holds eight boundaries of a 30 s period, and
// 180 000 packets: at 0.03 % loss, 54 losses, ±14 % (one binomial
// standard deviation).
const (
	lightSpacing  = 1400 * time.Microsecond
	lightSize     = 1000
	lightRate     = lightSize * 8 / 1.4e-3
	lightDuration = 250 * time.Second
)

// lightEpoch is the light probes' start on the wall clock: 9 s before the
// :12 boundary of the default profile (any instant would do: the prober
// finds the schedule wherever it falls).
var lightEpoch = time.Date(2026, 12, 1, 10, 0, 3, 0, time.UTC)

// Reconfig is what the light probe of one direction showed.
type Reconfig struct {
	Direction string
	Report    *probe.Report
	// IdleLoss is the loss outside outages, of IdlePackets.
	IdleLoss    float64
	IdlePackets int
	// Delay is the probe's one-way delay over time (for the figure).
	T, OWDms []float64
}

// runReconfig probes one direction with the light probe and infers the
// schedule, the outages, the frame, the idle delay and loss and the
// per-interval delay shift (findings 14–16, 24).
func runReconfig(l lab, v Variant, dir string, seed int) (*Reconfig, error) {
	tr, r, err := run{name: "reconfig-" + dir, path: starlink(dir, v, nil), dur: l.lightDuration().String(), seed: seed,
		epoch: lightEpoch, flows: []flowSpec{cbr(lightRate, lightSize, 0, 0)}}.inferred(l, probe.Options{})
	if err != nil {
		return nil, err
	}
	if r.Schedule == nil {
		return nil, fmt.Errorf("reconfig %s: no schedule among %d outages", dir, len(r.Outages))
	}
	rc := &Reconfig{Direction: dir, Report: r}
	// Idle loss: the intervals leave out the outages and the 100 ms after
	// each, while the queue built during the outage drains (a packet that
	// finds it may meet the AQM).
	lost, n := 0, 0
	for _, iv := range r.Intervals {
		lost, n = lost+iv.Lost, n+iv.Packets
	}
	rc.IdleLoss = float64(lost) / float64(max(1, n))
	rc.IdlePackets = n
	// The figure keeps one packet in 20 (every 20 ms): enough to show
	// 45 ms outages, small enough to inline.
	for i := 0; i < len(tr.Samples); i += 20 {
		s := tr.Samples[i]
		rc.T = append(rc.T, s.Sent.Seconds())
		if s.Lost {
			rc.OWDms = append(rc.OWDms, math.NaN())
		} else {
			rc.OWDms = append(rc.OWDms, float64(s.OWD)/1e6)
		}
	}
	return rc, nil
}

// anchor is the wall-clock start of the single-slot procedures: one
// second after a boundary of the inferred schedule, so that a run of up
// to period − 1 s sees neither an outage nor a reset.
func (rc *Reconfig) anchor() time.Time {
	s := rc.Report.Schedule
	minute := lightEpoch.Truncate(time.Minute)
	return minute.Add(time.Hour + s.UTCOffset + anchorLead)
}

// anchorLead is how long after a boundary the single-slot procedures
// start: past the outage (45–68 ms, finding 14) with margin.
const anchorLead = time.Second

// quantities compares the light probe with the profile.
func (rc *Reconfig) quantities(p *profile.StarlinkProfile) []Quantity {
	a := access(p, rc.Direction)
	r, s := rc.Report, rc.Report.Schedule
	frame := p.TDMA.Frame
	paperOutage := map[string]string{"downlink": "~45", "uplink": "~68"}[rc.Direction]
	paperOWD := map[string]string{"downlink": "13", "uplink": "17"}[rc.Direction]
	paperLoss := map[string]string{"downlink": "0.03", "uplink": "0.02"}[rc.Direction]
	n := float64(rc.IdlePackets)
	qs := []Quantity{
		{Finding: "13–16", Direction: rc.Direction, Name: "reconfiguration period", Unit: "s", Paper: "15",
			Profile: p.Reconfig.Period.Seconds(), Inferred: s.Period.Seconds(), Abs: 0.003,
			Why: "least-squares grid of the outage starts; 3 ms: two probe spacings"},
		{Finding: "13–16", Direction: rc.Direction, Name: "boundary offset in the UTC minute (mod period)", Unit: "s", Paper: ":12/:27/:42/:57",
			Profile: (p.Reconfig.Offset % p.Reconfig.Period).Seconds(), Inferred: s.UTCOffset.Seconds(), Abs: 0.003,
			Why: "an outage starts at its boundary: two probe spacings"},
		{Finding: "14", Direction: rc.Direction, Name: "outage", Unit: "ms", Paper: paperOutage,
			Profile: ms(a.Outage.Duration), Inferred: ms(r.OutageLength), Rel: within10,
			Why: "frames quantise both ends (up to two frames, 2.7 ms)"},
		{Finding: "—", Direction: rc.Direction, Name: "TDMA frame", Unit: "ms", Paper: "1.333 (1/750 s)",
			Profile: ms(frame), Inferred: ms(frameOf(r)), Abs: 0.002,
			Why: "phase coherence of the arrivals; 2 µs"},
		{Finding: "24", Direction: rc.Direction, Name: "idle one-way delay (least)", Unit: "ms", Paper: paperOWD,
			Profile: ms(a.BaseOWD + a.Drift.OWDMax/2 + frame/2), Inferred: ms(r.MinOWD), Abs: ms(a.Drift.OWDMax/2 + frame/2),
			Why: "base OWD plus the lowest slot's shift (0 to owd_max) and the luckiest frame wait (0 to a frame)"},
		{Finding: "24", Direction: rc.Direction, Name: "idle random loss", Unit: "%", Paper: paperLoss,
			Profile: 100 * a.RandomLoss, Inferred: 100 * rc.IdleLoss, Abs: 100 * 3 * math.Sqrt(a.RandomLoss/n),
			Why: fmt.Sprintf("three binomial standard deviations of %d packets", rc.IdlePackets)},
		{Finding: "15", Direction: rc.Direction, Name: "median OWD shift between intervals", Unit: "ms", Paper: "shifts (no number)",
			Profile: ms(a.Drift.OWDMax / 2), Inferred: ms(r.Shift), Abs: ms(a.Drift.OWDMax/2 + frame/2),
			Why: "each slot's shift is uniform on [0, owd_max]: the median change lies in [0, owd_max] (+ half a frame)"},
	}
	return qs
}

func frameOf(r *probe.Report) time.Duration {
	if r.Frame == nil {
		return 0
	}
	return r.Frame.Period
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// access is the profile's direction.
func access(p *profile.StarlinkProfile, dir string) profile.Access {
	if dir == "uplink" {
		return p.Uplink
	}
	return p.Downlink
}
