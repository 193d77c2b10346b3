package scenario

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/link/qdisc"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/sim"
)

// Spec translates the scenario into a simulator run.
func (s *Scenario) Spec() (netsim.Spec, error) {
	spec := netsim.Spec{
		Name:      s.Name,
		Seed:      s.Seed,
		Duration:  s.Duration,
		Interval:  s.Interval,
		Profile:   s.Path.Profile,
		City:      s.Path.City,
		Direction: s.Path.Direction,
	}
	switch s.Path.Profile {
	case "fixed":
		if s.Path.timeVarying() || s.Path.OWDSource == OWDOrbit {
			s.timeVaryingPath(&spec)
		} else {
			s.fixedPath(&spec)
		}
		if !s.EpochUTC.IsZero() {
			spec.EpochUTC = s.EpochUTC.Format(time.RFC3339Nano)
		}
		if s.orbit != nil { // the orbit is placed on the run's epoch: say which
			spec.EpochUTC = s.epoch().Format(time.RFC3339Nano)
			spec.Forward.Build, spec.Forward.Timed = s.withOrbitStage(true, spec.Forward.Build), true
			spec.Reverse.Build, spec.Reverse.Timed = s.withOrbitStage(false, spec.Reverse.Build), true
		}
	case profile.NameStarlink, profile.NameStarlinkSeed001:
		s.starlinkPath(&spec)
	case ProfileTrace:
		s.tracePathSpec(&spec)
	case "": // no path profile: links, a topology
		if s.Links == nil {
			return spec, fmt.Errorf("scenario has neither path nor links")
		}
		s.topologySpec(&spec)
	default:
		return spec, fmt.Errorf("path.profile %q: no simulator path builder", s.Path.Profile)
	}
	spec.SimOnly = s.simOnly()
	spec.ECN = s.marksECN()
	for _, f := range s.Flows {
		for range f.Count {
			fs := netsim.FlowSpec{
				CCA:          f.CCA,
				Params:       f.Params,
				Files:        f.Files,
				Start:        f.Start,
				Stop:         f.Stop,
				Bytes:        f.Bytes,
				SndBuf:       int(f.SndBuf),
				Rwnd:         int(f.Rwnd),
				MaxRateBps:   f.MaxRateBps,
				MaxRateBurst: int(f.MaxRateBurst),
				ExtraDelay:   f.ExtraRTT,
			}
			if f.CCA == CBR {
				fs.Kind = netsim.CBR
				fs.RateBps = f.RateBps
				fs.PacketSize = f.PacketSize
				fs.Record = f.Record
			}
			if s.Links != nil {
				fs.Route, fs.Moves = s.netsimRoute(f)
			}
			spec.Flows = append(spec.Flows, fs)
		}
	}
	return spec, nil
}

// fixedPath is a dumbbell: forward = i.i.d. loss → bottleneck (the queue's
// discipline served at the rate) →
// rtt/2 propagation; reverse = its own bottleneck (the forward rate and an
// unbounded queue unless configured) → loss → rtt/2.
func (s *Scenario) fixedPath(spec *netsim.Spec) {
	p := s.Path
	half := p.RTT / 2
	spec.BaseRTT = p.RTT
	spec.Forward = netsim.LinkSpec{Name: "forward", Build: func(drop link.DropFunc) (link.Stage, error) {
		return chain(p.RateBps, p.Queue, p.Loss, half, sim.Stream(s.Seed, "link/forward/loss"), sim.Stream(s.Seed, "link/forward/qdisc"), drop)
	}}
	revRate := p.Reverse.RateBps
	if revRate == 0 {
		revRate = p.RateBps
	}
	spec.Reverse = netsim.LinkSpec{Name: "reverse", Build: func(drop link.DropFunc) (link.Stage, error) {
		return chain(revRate, p.Reverse.Queue, p.Reverse.Loss, p.RTT-half, sim.Stream(s.Seed, "link/reverse/loss"), sim.Stream(s.Seed, "link/reverse/qdisc"), drop)
	}}
}

// config is the queue's link/qdisc configuration on a link of rateBps.
func (q Queue) config(rateBps float64) qdisc.Config {
	return qdisc.Config{
		Discipline: q.Discipline,
		Limit:      link.QueueLimit{Packets: q.LimitPackets, Bytes: q.LimitBytes},
		ECN:        q.ECN,
		Params:     q.Params,
		RateBps:    rateBps,
	}
}

func chain(rate float64, q Queue, loss float64, delay time.Duration, rng, qrng *rand.Rand, drop link.DropFunc) (link.Stage, error) {
	var stages []link.Stage
	if loss > 0 {
		l, err := link.NewLoss(loss, rng, drop)
		if err != nil {
			return nil, err
		}
		stages = append(stages, l)
	}
	queue, err := qdisc.New(q.config(rate), qrng, drop)
	if err != nil {
		return nil, err
	}
	b, err := link.NewServer(rate, queue)
	if err != nil {
		return nil, err
	}
	d, err := link.NewDelay(delay)
	if err != nil {
		return nil, err
	}
	return link.NewChain(append(stages, b, d)...), nil
}
