package repro001

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/leolab/leolab/emu"
	"github.com/leolab/leolab/internal/livetest"
	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

// liveLab runs the procedures live: each run is its scenario through the
// emulator (emu.FromSpec: CBR probes on the endpoints, the same Starlink
// link model in userspace between two namespaces), so the prober reads
// packets that crossed real sockets, TUN devices and the pump. Root is
// required.
//
// The simulator places a run by its epoch; live, t = 0 is the wall clock.
// The live schedule is the profile's at the real UTC time, periodic in the
// reconfiguration period, so what a procedure's epoch says of the wall
// clock is only its place in a slot: the anchor, a second after a boundary.
// A run that fits in the rest of the slot (with liveSlotMargin to spare)
// may start anywhere from the anchor on, so several short runs share a
// slot instead of each waiting a period; a longer one (the slot-rate probe
// crosses boundaries on purpose) starts exactly at the anchor's place.
// Before the schedule is known (the light probes) a run starts at once:
// the prober finds the schedule wherever it falls.
type liveLab struct {
	ctx    context.Context
	period time.Duration // 0 until the light probe inferred it
	light  time.Duration
	// runs is what the host did to each run, in order: the stalls a
	// live check weighs its failures against (livetest).
	runs []liveRun
}

// liveRun is one live run's name and what the host did to it: the
// pump's longest time off its CPU (emu's gap meter) and the longest pause
// of a probe sender beyond its spacing (its own stamps), in the run that
// counted, the tries'th.
type liveRun struct {
	name                 string
	pumpGap, senderPause time.Duration
	// hostDrops are the packets the kernel dropped at the TUN queues
	// before the pump read them: lost to the host, not the model.
	hostDrops int64
	tries     int
}

// Live run placement.
const (
	// liveSlotMargin is kept free before the next boundary: the drain
	// after a flow stops, and the host's stalls.
	liveSlotMargin = 500 * time.Millisecond
	// liveLightDuration is the live light probe: four boundaries of the
	// default 15 s period (the schedule's least-squares grid wants three
	// or more), against the simulator's 250 s; the idle-loss tolerance
	// follows from its packet count (three binomial deviations).
	liveLightDuration = 62 * time.Second
)

func newLab(opt *Options) (lab, error) {
	switch opt.Engine {
	case "", EngineSim:
		opt.Engine = EngineSim
		return simLab{}, nil
	case EngineEmu:
	default:
		return nil, fmt.Errorf("repro001: engine %q: allowed values are %s and %s", opt.Engine, EngineSim, EngineEmu)
	}
	if opt.Full {
		return nil, errors.New("repro001: engine emu runs the quick study only: the full one's 250 s light probes and 8-period slot probes per profile would take an hour of wall clock; run --full on sim")
	}
	// Kernel TCP runs the kernel's CUBIC and BBR, not our HyStart
	// variants, SaTCP, LeoCC or BBRv3: the TCP procedures stay on sim.
	opt.NoTCP = true
	if len(opt.Variants) == 0 {
		opt.Variants = []Variant{Default}
	}
	return &liveLab{ctx: context.Background(), light: liveLightDuration}, nil
}

func (*liveLab) engine() string                      { return EngineEmu }
func (l *liveLab) lightDuration() time.Duration      { return l.light }
func (l *liveLab) schedule(period time.Duration)     { l.period = period }
func (l *liveLab) tolerate(qs []Quantity) []Quantity { return liveTolerances(qs, l.runs) }
func (l *liveLab) stalls() []string                  { return stalls(l.runs) }

// exec runs r live, placed in its slot. A single-slot run the host held
// beyond what its checks tolerate (stallTolerance: the pump off its CPU,
// a sender paused), or whose packets the kernel dropped at a TUN queue
// before the pump read them, is run again, up to liveTries times, as a live test
// repeats (livetest); the last one counts, and its stalls stay on record
// for the report. Runs longer than a slot are not repeated (singleSlot);
// a light probe's stall widens the schedule's tolerance instead
// (livetol.go).
func (l *liveLab) exec(r run) (*result.Result, error) {
	for try := 1; ; try++ {
		res, lr, err := l.once(r)
		var np errNoPackets
		if errors.As(err, &np) && try < liveTries {
			continue // a sender the host kept from sending at all: run again
		}
		if err != nil {
			return nil, err
		}
		lr.tries = try
		if try == liveTries || !l.singleSlot(r) || (max(lr.pumpGap, lr.senderPause) <= stallTolerance(r.name) && lr.hostDrops == 0) {
			l.runs = append(l.runs, lr)
			return res, nil
		}
	}
}

// singleSlot reports whether r fits in one slot of the inferred schedule:
// a few seconds, where a stall of the host is rare enough to run again.
// The longer ones (the light probes before the schedule is known, the
// slot-rate probe across boundaries) see a stall of a few ms in nearly
// every run on a shared host: they count as they come, and the report
// lists their stalls.
func (l *liveLab) singleSlot(r run) bool {
	d, err := time.ParseDuration(r.dur)
	return err == nil && l.period > 0 && d <= l.period-anchorLead
}

// liveTries bounds the runs of one procedure step (livetest.Tries).
const liveTries = livetest.Tries

// once runs r live once and measures the host's stalls in it.
func (l *liveLab) once(r run) (*result.Result, liveRun, error) {
	lr := liveRun{name: r.name}
	sc, spec, err := scenario.ParseSpec(r.name+".yaml", []byte(r.yaml()))
	if err != nil {
		return nil, lr, fmt.Errorf("procedure %s: %w", r.name, err)
	}
	p := sc.Starlink()
	rc, err := emu.FromSpec(spec, emu.SpecOptions{Starlink: p})
	if err != nil {
		return nil, lr, fmt.Errorf("procedure %s: %w", r.name, err)
	}
	if p != nil {
		// FromSpec built the path for now; rebuild it for the placed
		// epoch (the schedule at the real UTC position of t = 0).
		want := time.Now().Add(emu.StartLead)
		if l.period > 0 {
			want = place(want, r.epoch, spec.Duration, l.period)
		}
		rc.Epoch = want.Add(-emu.StartLead)
		time.Sleep(time.Until(rc.Epoch))
		rc.Uplink, rc.Downlink = emu.StarlinkPath(p, rc.Epoch, spec.Seed)
	}
	res, err := emu.Run(l.ctx, rc)
	if err != nil {
		return nil, lr, fmt.Errorf("procedure %s (live): %w", r.name, err)
	}
	lr.pumpGap = time.Duration(res.Instrument["pump_gap_max_us"] * float64(time.Microsecond))
	lr.hostDrops = int64(res.Instrument["tun_drops_client"] + res.Instrument["tun_drops_server"])
	trs, err := traces(res)
	if err != nil {
		return nil, lr, fmt.Errorf("procedure %s (live): %w", r.name, err)
	}
	for _, tr := range trs {
		lr.senderPause = max(lr.senderPause, senderPause(tr))
	}
	for i, f := range spec.Flows {
		if _, ok := trs[i]; f.Record && !ok {
			return nil, lr, errNoPackets{fmt.Sprintf("procedure %s (live): probe flow %d recorded no packets", r.name, i)}
		}
	}
	return res, lr, nil
}

// errNoPackets is a live run whose probe flow recorded nothing.
type errNoPackets struct{ msg string }

func (e errNoPackets) Error() string { return e.msg }

// senderPause is the longest time tr's sender went without sending beyond
// its spacing.
func senderPause(tr *probe.Trace) time.Duration {
	var m time.Duration
	for k := 1; k < len(tr.Samples); k++ {
		m = max(m, tr.Samples[k].Sent-tr.Samples[k-1].Sent-tr.Spacing)
	}
	return m
}

// place is the first instant from t0 on whose place in a slot of period
// is the anchor's (anchor's offset modulo period) or, when a run of dur
// fits in the slot after it, up to the slot's end less liveSlotMargin.
func place(t0, anchor time.Time, dur, period time.Duration) time.Time {
	pos := func(t time.Time) time.Duration { return time.Duration(t.UnixNano() % int64(period)) }
	a := pos(anchor)
	slack := period - anchorLead - dur - liveSlotMargin
	if slack < 0 {
		slack = 0
	}
	d := (a - pos(t0) + period) % period // wait to the next anchor place
	if late := period - d; d != 0 && late <= slack {
		return t0 // within the window after this slot's anchor
	}
	return t0.Add(d)
}
