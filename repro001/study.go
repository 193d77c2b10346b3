package repro001

import (
	"fmt"

	"github.com/leolab/leolab/profile"
)

// Options choose the study's size.
type Options struct {
	// Full runs the longer probes (more slots for the slot-rate and
	// recovery procedures); the default is the quick study.
	Full bool
	// Seed seeds every run (default 1).
	Seed int
	// Variants are the profiles studied; default Default and Perturbed().
	Variants []Variant
	// NoTCP skips the TCP procedures (slow start, recovery), which run on
	// the first variant only.
	NoTCP bool
	// Progress, when set, hears each procedure as it starts.
	Progress func(variant, procedure string)
	// Engine is where the runs execute: EngineSim (default) or EngineEmu,
	// live through the emulator (live.go: quick, link procedures only).
	Engine string
}

// Engines of Options.Engine, named as result.Result.Engine names them.
const (
	EngineSim = "sim"
	EngineEmu = "emu"
)

// Study sizes: periods of the slot-rate probe and boundaries of the
// recovery runs, quick and full.
const (
	quickSlotPeriods, fullSlotPeriods = 2.3, 8.3
	quickRecovery, fullRecovery       = 1, 4
)

// Directions are the two directions every link procedure runs in.
var Directions = []string{"downlink", "uplink"}

// VariantResult is everything the procedures read on one profile.
type VariantResult struct {
	Variant    Variant
	Profile    *profile.StarlinkProfile
	Reconfig   map[string]*Reconfig
	Queue      *Queue
	Ramp       map[string]*Ramp
	Decay      map[string]*Decay
	AQM        map[string]*AQM
	PoP        *PoP
	Isolation  map[string]*Isolation
	Slots      map[string]*Slots
	Quantities []Quantity
}

// Study is the whole reproduction.
type Study struct {
	Options    Options
	Variants   []*VariantResult
	SlowStart  []SlowStart
	Recovery   []Recovery
	Boundaries []float64 // of the recovery runs, s
	// HostStalls lists the live runs the host held beyond what their
	// checks tolerate, and those repeated for it (engine emu): a quantity
	// outside its tolerance from such a run may be the host's, not the
	// model's or the prober's.
	HostStalls []string
}

// Run runs every procedure on every variant and compares.
func Run(opt Options) (*Study, error) {
	if opt.Seed <= 0 {
		opt.Seed = 1
	}
	l, err := newLab(&opt) // emu: quick, no TCP, the default profile unless told
	if err != nil {
		return nil, err
	}
	if len(opt.Variants) == 0 {
		opt.Variants = append([]Variant{Default}, Perturbed()...)
	}
	st := &Study{Options: opt}
	for _, v := range opt.Variants {
		vr, err := runVariant(l, v, opt)
		if err != nil {
			return nil, err
		}
		st.Variants = append(st.Variants, vr)
	}
	st.HostStalls = l.stalls()
	if opt.NoTCP {
		return st, nil
	}
	first := st.Variants[0]
	anchor, period := first.Reconfig["downlink"].anchor(), first.Reconfig["downlink"].Report.Schedule.Period
	if err := recoveryFits(period); err != nil {
		return nil, err
	}
	progress(opt, first.Variant.Name, "slow start")
	ss, err := runSlowStart(l, first.Variant, anchor, opt.Seed)
	if err != nil {
		return nil, err
	}
	st.SlowStart = ss
	progress(opt, first.Variant.Name, "recovery after a reconfiguration")
	n := quickRecovery
	if opt.Full {
		n = fullRecovery
	}
	if st.Recovery, st.Boundaries, err = runRecovery(l, first.Variant, anchor, opt.Seed, period, n); err != nil {
		return nil, err
	}
	return st, nil
}

func progress(opt Options, v, p string) {
	if opt.Progress != nil {
		opt.Progress(v, p)
	}
}

// runVariant runs the link procedures in the order their knowledge flows:
// the schedule first (it places the others in a slot), the buffer, the
// ramp (its peak sizes the overloading probes), then the rest.
func runVariant(l lab, v Variant, opt Options) (*VariantResult, error) {
	p, err := v.Profile()
	if err != nil {
		return nil, err
	}
	vr := &VariantResult{Variant: v, Profile: p, Reconfig: map[string]*Reconfig{}, Ramp: map[string]*Ramp{},
		Decay: map[string]*Decay{}, AQM: map[string]*AQM{}, Isolation: map[string]*Isolation{}, Slots: map[string]*Slots{}}
	seed := opt.Seed
	step := func(name string, f func() error) error {
		progress(opt, v.Name, name)
		if err := f(); err != nil {
			return fmt.Errorf("variant %s: %w", v.Name, err)
		}
		return nil
	}
	for _, dir := range Directions {
		if err := step("reconfigurations ("+dir+")", func() (err error) {
			vr.Reconfig[dir], err = runReconfig(l, v, dir, seed)
			return err
		}); err != nil {
			return nil, err
		}
	}
	dl := vr.Reconfig["downlink"]
	anchor, period := dl.anchor(), dl.Report.Schedule.Period
	l.schedule(period)
	frame := frameOf(dl.Report)
	if frame <= 0 {
		return nil, fmt.Errorf("variant %s: the light probe found no frame", v.Name)
	}
	if err := step("queue bursts", func() (err error) { vr.Queue, err = runQueue(l, v, anchor, seed); return err }); err != nil {
		return nil, err
	}
	for _, dir := range Directions {
		if err := step("ramp ("+dir+")", func() (err error) { vr.Ramp[dir], err = runRamp(l, v, dir, anchor, seed); return err }); err != nil {
			return nil, err
		}
		peak := vr.Ramp[dir].Ramp.Peak
		if err := step("decay ("+dir+")", func() (err error) {
			vr.Decay[dir], err = runDecay(l, v, dir, anchor, seed, peak, frame)
			return err
		}); err != nil {
			return nil, err
		}
	}
	if err := step("PoP sweep", func() (err error) {
		vr.PoP, err = runPoP(l, v, anchor, seed, vr.Queue.Limit("downlink"))
		return err
	}); err != nil {
		return nil, err
	}
	for _, dir := range Directions {
		peak, pop := vr.Ramp[dir].Ramp.Peak, vr.PoP.Fit.Threshold
		if err := step("AQM curve ("+dir+")", func() (err error) { vr.AQM[dir], err = runAQM(l, v, dir, anchor, seed, peak, pop); return err }); err != nil {
			return nil, err
		}
	}
	periods := quickSlotPeriods
	if opt.Full {
		periods = fullSlotPeriods
	}
	for _, dir := range Directions {
		peak, pop := vr.Ramp[dir].Ramp.Peak, vr.PoP.Fit.Threshold
		if err := step("isolation ("+dir+")", func() (err error) {
			vr.Isolation[dir], err = runIsolation(l, v, dir, anchor, seed, peak, pop)
			return err
		}); err != nil {
			return nil, err
		}
		if err := step("slot rates ("+dir+")", func() (err error) {
			vr.Slots[dir], err = runSlots(l, v, dir, anchor, seed, peak, pop, period, vr.Reconfig[dir].Report.OutageLength, periods)
			return err
		}); err != nil {
			return nil, err
		}
	}
	vr.Quantities = l.tolerate(vr.compare())
	return vr, nil
}

// compare lists every quantity of the variant against its profile.
func (vr *VariantResult) compare() []Quantity {
	p := vr.Profile
	var qs []Quantity
	for _, dir := range Directions {
		qs = append(qs, vr.Reconfig[dir].quantities(p)...)
	}
	qs = append(qs, vr.Queue.quantities(p)...)
	for _, dir := range Directions {
		qs = append(qs, vr.Ramp[dir].quantities(p)...)
		qs = append(qs, vr.Decay[dir].quantities(p)...)
		qs = append(qs, vr.AQM[dir].quantities(p, vr.Queue.Limit(dir))...)
	}
	qs = append(qs, vr.PoP.quantities(p)...)
	for _, dir := range Directions {
		qs = append(qs, vr.Isolation[dir].quantities(p)...)
		qs = append(qs, vr.Slots[dir].quantities(p)...)
	}
	return qs
}

// Failed lists the quantities outside their tolerance.
func (vr *VariantResult) Failed() []Quantity {
	var out []Quantity
	for _, q := range vr.Quantities {
		if !q.OK() {
			out = append(out, q)
		}
	}
	return out
}
