package scenario

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/link/ptot"
	"github.com/leolab/leolab/link/schedule"
	"github.com/leolab/leolab/sim"
)

// orbitStage is one direction's ptot stage, nil when it would drop
// nothing: the data direction carries loss_model's legs, both directions
// lose every packet of a slot without a satellite path. Streams:
// link/forward/ptot, link/reverse/ptot.
func (s *Scenario) orbitStage(forward bool, drop link.DropFunc) (link.Stage, error) {
	o := s.orbit
	switch {
	case o == nil:
		return nil, nil
	case forward && (s.Path.LossModel != nil || o.hasOutage):
		return ptot.NewLoss(o.forward, sim.Stream(s.Seed, "link/forward/ptot"), drop)
	case !forward && o.hasOutage:
		return ptot.NewLoss(o.reverse, sim.Stream(s.Seed, "link/reverse/ptot"), drop)
	}
	return nil, nil
}

// withOrbitStage puts a direction's ptot stage in front of what build
// builds (a fixed path's chain: the loss happens before the queue).
func (s *Scenario) withOrbitStage(forward bool, build func(link.DropFunc) (link.Stage, error)) func(link.DropFunc) (link.Stage, error) {
	if s.orbit == nil {
		return build
	}
	return func(drop link.DropFunc) (link.Stage, error) {
		rest, err := build(drop)
		if err != nil {
			return nil, err
		}
		o, err := s.orbitStage(forward, drop)
		if err != nil || o == nil {
			return rest, err
		}
		return link.NewChain(o, rest), nil
	}
}

// orbitSlotOWD is the Starlink model's per-slot OWD shift under
// owd_source: orbit: the slot's propagation delay above the run's
// smallest, so the profile's base_owd stays the path's idle minimum. Nil
// otherwise (the model draws its drift).
func (s *Scenario) orbitSlotOWD() func(time.Duration) time.Duration {
	o := s.orbit
	if o == nil || s.Path.OWDSource != OWDOrbit {
		return nil
	}
	return func(start time.Duration) time.Duration {
		k := 0
		if start > o.first { // start is a boundary: round to its slot
			k = min(int((start-o.first+o.length/2)/o.length), len(o.owd)-1)
		}
		return o.owd[k] - o.minOWD
	}
}

// orbitDelay is a fixed path's one-way delay (s) under owd_source: orbit:
// each slot's propagation delay from its start, added to rtt/2 as a delay
// file's is.
func (s *Scenario) orbitDelay() schedule.Profile {
	o := s.orbit
	var ch []schedule.Change
	for k := 1; k < len(o.owd); k++ {
		if o.owd[k] != o.owd[k-1] {
			ch = append(ch, schedule.Change{At: o.first + time.Duration(k)*o.length, Value: o.owd[k].Seconds()})
		}
	}
	return mustProfile(o.owd[0].Seconds(), ch)
}

// simOnly says why the live emulator cannot run the path ("" if it can):
// it rebuilds a Starlink path on the wall clock without these stages, and
// the orbit slots are placed on the scenario's epoch, not the live run's.
func (s *Scenario) simOnly() string {
	if s.orbit == nil {
		return ""
	}
	field := "path.orbit"
	for _, f := range []string{"path.loss_model", "path.orbit", "path.owd_source"} {
		if _, ok := s.lines[f]; ok {
			field = f
			break
		}
	}
	return fmt.Sprintf("%s (line %d): path.loss_model, path.orbit and path.owd_source run on the simulator only (leolab sim); the live emulator does not model them", field, s.lines[field])
}

// withOrbitAccess puts the ptot stage of a Starlink access link's
// direction in front of it.
func (s *Scenario) withOrbitAccess(access func(bool, link.DropFunc) (link.Stage, error), forward func(down bool) bool) func(bool, link.DropFunc) (link.Stage, error) {
	if s.orbit == nil {
		return access
	}
	return func(down bool, drop link.DropFunc) (link.Stage, error) {
		return s.withOrbitStage(forward(down), func(drop link.DropFunc) (link.Stage, error) { return access(down, drop) })(drop)
	}
}
