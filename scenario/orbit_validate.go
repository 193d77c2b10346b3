package scenario

import (
	"errors"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/leolab/leolab/link/ptot"
	"github.com/leolab/leolab/link/starlink"
	"github.com/leolab/leolab/orbit"
)

// orbitSlots is what Validate computed from path.orbit: the slot paths and
// the loss stages' slots, on the run's time axis.
type orbitSlots struct {
	paths  []orbit.SlotPath
	first  time.Duration   // run time of slot 0's start (≤ 0)
	length time.Duration   // slot length
	owd    []time.Duration // per slot: its one-way delay, an outage slot the previous one's
	minOWD time.Duration   // the smallest of owd
	// forward carries loss_model's legs (zero without one); reverse only the
	// outages. hasOutage says whether any slot has no path.
	forward, reverse ptot.Slots
	hasOutage        bool
}

// maxOrbitSlots bounds the slots computed for a run, as `leolab orbit path`
// does (each costs a pass over the shell's satellites).
const maxOrbitSlots = 100_000

const orbitExample = `e.g. orbit: {from: "-37.85,145.11", to: "-33.87,151.21"}`

// validateOrbit checks path.loss_model, path.orbit and path.owd_source and
// computes the orbit's slots over the run. It runs after the profile's own
// checks (a Starlink path's profile is resolved: its reconfiguration
// schedule places the slots).
func (s *Scenario) validateOrbit(fail failFunc) error {
	p := &s.Path
	if !p.orbitUsed() || p.LossModel == nil && p.Orbit == nil && p.OWDSource == OWDModel {
		return nil // owd_source: model alone is the default, spelt out
	}
	if p.Profile != "fixed" && s.starlink == nil {
		return fail("path", "loss_model, orbit and owd_source apply to profiles fixed and starlink (not %s)", p.Profile)
	}
	if p.OWDSource == "" {
		p.OWDSource = OWDModel
	}
	if !slices.Contains(OWDSources, p.OWDSource) {
		return fail("path.owd_source", "%q (allowed: %s)", p.OWDSource, strings.Join(OWDSources, ", "))
	}
	params := ptot.Params{} // without loss_model the stages drop outage slots only
	if m := p.LossModel; m != nil {
		switch {
		case m.Kind == "":
			s.lineOf("path.loss_model.kind", "path.loss_model")
			return fail("path.loss_model.kind", "missing (allowed: %s)", strings.Join(LossModelKinds, ", "))
		case !slices.Contains(LossModelKinds, m.Kind):
			return fail("path.loss_model.kind", "%q (allowed: %s)", m.Kind, strings.Join(LossModelKinds, ", "))
		}
		if err := m.PTot.Validate(); err != nil {
			return lossModelError(err, fail)
		}
		params = m.PTot
	}
	o := p.Orbit
	switch {
	case o == nil && p.LossModel != nil:
		return fail("path.loss_model", "needs path.orbit, the geometry its slots' ISL counts and handovers come from, %s", orbitExample)
	case o == nil:
		return fail("path.owd_source", "orbit needs path.orbit, the geometry its per-slot delay comes from, %s", orbitExample)
	case p.LossModel == nil && p.OWDSource != OWDOrbit:
		return fail("path.orbit", "unused: path.loss_model (kind ptot) and path.owd_source: orbit read it; give one of them")
	}
	cfg, src, err := s.orbitConfig(o, fail)
	if err != nil {
		return err
	}
	paths, err := orbit.Schedule(src, cfg)
	if err != nil {
		return fail("path.orbit", "%v", err)
	}
	sl := &orbitSlots{paths: paths, first: cfg.Start.Sub(s.epoch()), length: cfg.Slot, owd: make([]time.Duration, len(paths))}
	prev := time.Duration(-1)
	for k, sp := range paths {
		if !sp.Outage {
			prev = sp.OneWay
		}
		sl.owd[k] = prev
		sl.hasOutage = sl.hasOutage || sp.Outage
	}
	first := slices.IndexFunc(sl.owd, func(d time.Duration) bool { return d >= 0 })
	if first < 0 {
		return fail("path.orbit", "no satellite above %g° serves %s with a path to %s in any slot of the run (mode %s): lower min_elevation or try mode bentpipe", cfg.MinElevation, o.From, o.To, cfg.Mode)
	}
	for k := range first { // leading outage slots: the first delay there is
		sl.owd[k] = sl.owd[first]
	}
	sl.minOWD = slices.Min(sl.owd)
	if sl.forward, err = ptot.FromOrbit(paths, sl.first, sl.length, params); err != nil {
		return lossModelError(err, fail)
	}
	sl.reverse, _ = ptot.FromOrbit(paths, sl.first, sl.length, ptot.Params{})
	s.orbit = sl
	return nil
}

func lossModelError(err error, fail failFunc) error {
	var fe *ptot.FieldError
	if errors.As(err, &fe) {
		return fail("path.loss_model."+fe.Field, "%s", fe.Msg)
	}
	return fail("path.loss_model", "%v", err)
}

// orbitConfig checks path.orbit's fields and places its slots: a Starlink
// path's at its reconfiguration boundaries (the first one at or before the
// run's start), a fixed path's from the run's start every slot.
func (s *Scenario) orbitConfig(o *OrbitPath, fail failFunc) (orbit.PathConfig, orbit.Source, error) {
	cfg := orbit.PathConfig{MinElevation: o.MinElevation, Gateways: orbit.Gateways()}
	var err error
	for _, e := range []struct {
		field, val string
		dst        *orbit.Site
	}{{"from", o.From, &cfg.From}, {"to", o.To, &cfg.To}} {
		if e.val == "" {
			s.lineOf("path.orbit."+e.field, "path.orbit")
			return cfg, nil, fail("path.orbit."+e.field, "missing: LAT,LON in degrees, %s", orbitExample)
		}
		if *e.dst, err = orbit.ParseLatLon(e.val); err != nil {
			return cfg, nil, fail("path.orbit."+e.field, "%v", err)
		}
	}
	if cfg.Mode, err = orbit.ParseMode(o.Mode); err != nil {
		return cfg, nil, fail("path.orbit.mode", "%v", err)
	}
	if cfg.Policy, err = orbit.ParsePolicy(o.Policy); err != nil {
		return cfg, nil, fail("path.orbit.policy", "%v", err)
	}
	if !(o.MinElevation > 0 && o.MinElevation < 90) { // NaN too
		return cfg, nil, fail("path.orbit.min_elevation", "%v: want 0 < degrees < 90 (omit for %g, seed 000)", o.MinElevation, orbit.DefaultMinElevation)
	}
	src, err := s.orbitSource(o, cfg.Mode, fail)
	if err != nil {
		return cfg, nil, err
	}
	epoch := s.epoch()
	var first time.Duration
	if s.starlink != nil {
		if o.Slot != 0 {
			return cfg, nil, fail("path.orbit.slot", "a starlink path's slots are its reconfiguration intervals (reconfig.period %v); omit slot", s.starlink.Reconfig.Period)
		}
		sched := starlink.NewSchedule(s.starlink, starlink.MinuteOffset(epoch))
		first, cfg.Slot = sched.SlotStart(0), sched.Period
	} else {
		cfg.Slot = o.Slot
		if cfg.Slot == 0 {
			cfg.Slot = orbit.DefaultSlot
		}
		if cfg.Slot < 0 {
			return cfg, nil, fail("path.orbit.slot", "%v: must be > 0 (omit for %v)", cfg.Slot, orbit.DefaultSlot)
		}
	}
	n := (s.Duration - first + cfg.Slot - 1) / cfg.Slot
	if n > maxOrbitSlots {
		return cfg, nil, fail("path.orbit.slot", "duration %v in slots of %v is %d slots (allowed: at most %d)", s.Duration, cfg.Slot, n, maxOrbitSlots)
	}
	cfg.Start, cfg.Duration = epoch.Add(first), n*cfg.Slot
	return cfg, src, nil
}

// orbitSource is path.orbit's satellites: the Walker shell, or the element
// sets of path.orbit.tle propagated with SGP4/SDP4 (as `leolab orbit path
// --tle` does).
func (s *Scenario) orbitSource(o *OrbitPath, mode orbit.Mode, fail failFunc) (orbit.Source, error) {
	if o.TLE == "" {
		sh, err := orbit.ShellByName(o.Shell)
		if err != nil {
			return nil, fail("path.orbit.shell", "%v", err)
		}
		src, err := orbit.NewWalker(orbit.Epoch(), sh)
		if err != nil {
			return nil, fail("path.orbit.shell", "%v", err)
		}
		return src, nil
	}
	switch {
	case o.shellGiven:
		return nil, fail("path.orbit.tle", "and path.orbit.shell both name the satellites; give one")
	case mode == orbit.ISL:
		return nil, fail("path.orbit.mode", "isl needs a Walker shell's links; it cannot be used with tle (use mode bentpipe)")
	}
	name := s.resolve(o.TLE)
	f, err := os.Open(name)
	if err != nil {
		return nil, fail("path.orbit.tle", "%v", err)
	}
	defer f.Close()
	tles, err := orbit.ReadTLEs(f, name)
	if err != nil {
		return nil, fail("path.orbit.tle", "%v", err)
	}
	set, err := orbit.NewTLESet(tles)
	if err != nil {
		return nil, fail("path.orbit.tle", "%s: %v", name, err)
	}
	return set, nil
}

// OrbitLoss returns the data direction's ptot slots of a validated
// scenario with path.orbit (on the run's time axis), nil without one:
// tests and tools compare a run with the model's p_tot.
func (s *Scenario) OrbitLoss() *ptot.Slots {
	if s.orbit == nil {
		return nil
	}
	return &s.orbit.forward
}

// OrbitPaths returns the orbit slots of a validated scenario (slot 0
// starting at OrbitLoss().First), nil without path.orbit.
func (s *Scenario) OrbitPaths() []orbit.SlotPath {
	if s.orbit == nil {
		return nil
	}
	return s.orbit.paths
}
