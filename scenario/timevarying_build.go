package scenario

import (
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/link/qdisc"
	"github.com/leolab/leolab/link/schedule"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/sim"
)

// profiles are a time-varying fixed path's quantities: rate (bits/s),
// half the rtt (s, each direction's share, as fixedPath splits it), loss,
// and the delay file's one-way delay (s) with its outages.
type profiles struct {
	rate, half, loss schedule.Profile
	path             schedule.Profile
	outages          schedule.Outages
}

func (s *Scenario) profiles() profiles {
	p := s.Path
	out := scheduleProfiles(p.RateBps, p.RTT, p.Loss, p.Schedule)
	if s.pathLog != nil {
		out.path, out.outages = s.pathLog.Delay(p.DelayFile.Offset, p.DelayFile.HandoverOutage)
	}
	if p.OWDSource == OWDOrbit {
		out.path = s.orbitDelay()
	}
	return out
}

// scheduleProfiles are the rate, half-rtt and loss profiles of a fixed
// link's initial values and schedule.
func scheduleProfiles(rateBps float64, rtt time.Duration, lossP float64, sched []Change) profiles {
	var rate, half, loss []schedule.Change
	for _, c := range sched {
		if c.HasRate {
			rate = append(rate, schedule.Change{At: c.At, Ramp: c.Ramp, Value: c.RateBps})
		}
		if c.HasRTT {
			half = append(half, schedule.Change{At: c.At, Ramp: c.Ramp, Value: c.RTT.Seconds() / 2})
		}
		if c.HasLoss {
			loss = append(loss, schedule.Change{At: c.At, Ramp: c.Ramp, Value: c.Loss})
		}
	}
	var out profiles
	out.rate = mustProfile(rateBps, rate)
	out.half = mustProfile(rtt.Seconds()/2, half)
	out.loss = mustProfile(lossP, loss)
	return out
}

// mustProfile builds a profile from changes Validate has checked.
func mustProfile(initial float64, ch []schedule.Change) schedule.Profile {
	pr, err := schedule.NewProfile(initial, ch)
	if err != nil {
		panic("leolab BUG: validated schedule refused: " + err.Error())
	}
	return pr
}

// timeVaryingPath is fixedPath with schedules: forward = loss p(t) →
// queue → server at rate(t) → delay rtt(t)/2 + file(t); reverse = its own
// loss → queue → server (at rate(t) unless reverse.rate is set) → the
// same delay. The delay file's outages take both directions down.
func (s *Scenario) timeVaryingPath(spec *netsim.Spec) {
	p := s.Path
	pr := s.profiles()
	spec.BaseRTT = 2 * time.Duration((pr.half.Value(0)+pr.path.Value(0))*float64(time.Second))
	if s.pathLog != nil && p.DelayFile.Handovers {
		spec.Schedule = handoverSchedule(s.pathLog, p.DelayFile.Offset, s.handoverErr, s.Seed)
	}
	revRate := schedule.Constant(p.Reverse.RateBps)
	if p.Reverse.RateBps == 0 {
		revRate = pr.rate
	}
	spec.Forward = netsim.LinkSpec{Name: "forward", Timed: true, Build: func(drop link.DropFunc) (link.Stage, error) {
		return timedChain(pr.rate, p.Queue, pr.loss, pr, sim.Stream(s.Seed, "link/forward/loss"), sim.Stream(s.Seed, "link/forward/qdisc"), drop)
	}}
	spec.Reverse = netsim.LinkSpec{Name: "reverse", Timed: true, Build: func(drop link.DropFunc) (link.Stage, error) {
		return timedChain(revRate, p.Reverse.Queue, schedule.Constant(p.Reverse.Loss), pr, sim.Stream(s.Seed, "link/reverse/loss"), sim.Stream(s.Seed, "link/reverse/qdisc"), drop)
	}}
}

// handoverSchedule is a path file's route changes from offset on, in run
// time, each moved by a draw from ecdf when it is set.
func handoverSchedule(pl *schedule.PathLog, offset time.Duration, ecdf *schedule.ECDF, seed uint64) cc.Schedule {
	h := schedule.NewHandovers(pl.Handovers(offset))
	if ecdf != nil {
		h = h.Predicted(ecdf, sim.Stream(seed, "link/handover-error"))
	}
	return h
}

// timedChain builds one direction; the profiles are copied into each stage
// (each keeps its own cursor).
func timedChain(rate schedule.Profile, q Queue, loss schedule.Profile, pr profiles, rng, qrng *rand.Rand, drop link.DropFunc) (link.Stage, error) {
	var stages []link.Stage
	if loss.Max() > 0 {
		l, err := schedule.NewLoss(loss, rng, drop)
		if err != nil {
			return nil, err
		}
		stages = append(stages, l)
	}
	queue, err := qdisc.New(q.config(rate.Value(0)), qrng, drop)
	if err != nil {
		return nil, err
	}
	b, err := schedule.NewServer(rate, queue)
	if err != nil {
		return nil, err
	}
	d, err := schedule.NewDelay(pr.half, pr.path, pr.outages, drop)
	if err != nil {
		return nil, err
	}
	return link.NewChain(append(stages, b, d)...), nil
}
