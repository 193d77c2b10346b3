package emu

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sync"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/endpoint"
	"github.com/leolab/leolab/result"
)

// Flow kinds and directions of a Run.
const (
	KindTCP       = "tcp"       // kernel TCP bulk flow
	KindCBR       = "cbr"       // constant-bit-rate UDP flow
	KindTransport = "transport" // leolab's transport over UDP

	Downlink = "downlink" // server → client (the default)
	Uplink   = "uplink"   // client → server

	// basePort is the first flow's port (iperf3's default); flow i uses
	// basePort+i.
	basePort = 5201
	// startLead is the time between the emulator's epoch and t=0 of the
	// flows, so the first flow does not start during setup.
	startLead = 100 * time.Millisecond
)

// StartLead is startLead for callers that place a run's t = 0 on the wall
// clock (Config.Epoch = the wanted t = 0 less StartLead).
const StartLead = startLead

// Flow is one flow of a Run.
type Flow struct {
	Kind string // KindTCP, KindCBR or KindTransport
	// CCA: the kernel's congestion control (KindTCP) or a leolab
	// controller (KindTransport, with its Params).
	CCA       string
	Params    map[string]float64
	Files     map[string]string // controller file parameters (cc.Config.Files)
	RateBps   float64           // CBR: IP-level rate
	Size      int               // CBR: IP packet size (0: packet.MTU)
	Record    bool              // CBR: per-packet records in the result
	Direction string            // Downlink (default) or Uplink
	Start     time.Duration     // since the run's t=0
	Duration  time.Duration     // 0: until the end of the run
	// SndBuf is the TCP send buffer in bytes (0: transport.DefaultSndBuf):
	// leolab's transport caps its unacknowledged data there; kernel flows
	// get it as tcp_wmem's maximum in the namespace they send from (the
	// autotuning limit, so one value per namespace).
	SndBuf int
}

// RunConfig is a whole emulated experiment.
type RunConfig struct {
	Config
	Name     string
	Seed     uint64 // controllers' random streams (KindTransport)
	Duration time.Duration
	Interval time.Duration // flow series (0: DefaultInterval)
	Flows    []Flow
	Path     result.Path // copied into the result
	// Schedule, when the path reconfigures on a schedule, returns it in
	// times since t0, the wall-clock instant of the flows' t=0 (for LeoCC
	// and SaTCP on our transport).
	Schedule func(t0 time.Time) cc.Schedule
	// ECN has kernel TCP in both namespaces negotiate ECN (ecn.go), for a
	// queue that marks instead of dropping.
	ECN bool
}

// Run starts the emulator, runs the flows concurrently, and returns the
// result in the shared schema with the pump's instrument figures. Cancelling
// ctx stops the flows early; the namespaces are removed in every case.
func Run(ctx context.Context, rc RunConfig) (*result.Result, error) {
	if err := rc.validate(); err != nil {
		return nil, err
	}
	wall := time.Now()
	rc.Config.SampleFrom = startLead // link samples on the flows' time axis
	e, err := Start(rc.Config)
	if err != nil {
		return nil, err
	}
	if err := setSendBuffers(e, rc.Flows); err != nil {
		e.Close()
		return nil, err
	}
	if rc.ECN {
		if err := enableECN(e); err != nil {
			e.Close()
			return nil, err
		}
	}
	t0 := e.Epoch().Add(startLead)
	flows, ferr := runFlows(ctx, e, t0, rc)
	st, cerr := e.Close()
	if err := errors.Join(ferr, cerr); err != nil {
		return nil, err
	}
	res := &result.Result{
		Engine:     "emu",
		Scenario:   rc.Name,
		Seed:       rc.Seed,
		EpochUTC:   t0.UTC().Format(time.RFC3339Nano),
		DurationS:  rc.Duration.Seconds(),
		WallS:      time.Since(wall).Seconds(),
		Path:       rc.Path,
		Flows:      flows,
		Links:      st.Links,
		Instrument: st.Instrument(),
		Fairness:   fairness(flows, rc.Flows, rc.Duration),
	}
	return res, ctx.Err()
}

func (rc *RunConfig) validate() error {
	if rc.Duration <= 0 {
		return fmt.Errorf("emu run: duration %v: must be > 0", rc.Duration)
	}
	if len(rc.Flows) == 0 {
		return errors.New("emu run: no flows")
	}
	for i, f := range rc.Flows {
		switch {
		case f.Kind != KindTCP && f.Kind != KindCBR && f.Kind != KindTransport:
			return fmt.Errorf("emu run: flow %d: kind %q: want %s, %s or %s", i, f.Kind, KindTCP, KindCBR, KindTransport)
		case f.Direction != "" && f.Direction != Downlink && f.Direction != Uplink:
			return fmt.Errorf("emu run: flow %d: direction %q: want %s or %s", i, f.Direction, Downlink, Uplink)
		case f.Start < 0 || f.Start >= rc.Duration:
			return fmt.Errorf("emu run: flow %d: start %v outside the run's %v", i, f.Start, rc.Duration)
		case f.SndBuf < 0:
			return fmt.Errorf("emu run: flow %d: send buffer %d bytes: must be >= 0 (0: the default)", i, f.SndBuf)
		}
	}
	if err := checkKernelCCAs(rc.Flows); err != nil {
		return fmt.Errorf("emu run: %w", err)
	}
	return checkSendBuffers(rc.Flows)
}

// runFlows runs every flow in its own goroutine. Flow times are relative to
// t0, startLead after the emulator's epoch.
func runFlows(ctx context.Context, e *Emulator, t0 time.Time, rc RunConfig) ([]result.Flow, error) {
	out := make([]result.Flow, len(rc.Flows))
	errs := make([]error, len(rc.Flows))
	var sched cc.Schedule
	if rc.Schedule != nil {
		sched = rc.Schedule(t0)
	}
	var wg sync.WaitGroup
	for i, f := range rc.Flows {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fr := flowRun{e: e, t0: t0, i: i, f: f, rc: &rc, sched: sched}
			out[i], errs[i] = fr.run(ctx)
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// flowRun is one flow of a run with what its endpoints need.
type flowRun struct {
	e     *Emulator
	t0    time.Time
	i     int
	f     Flow
	rc    *RunConfig
	sched cc.Schedule
}

func (r *flowRun) run(ctx context.Context) (result.Flow, error) {
	f, e := r.f, r.e
	from, to, addr := e.Server, e.Client, ClientAddr()
	if f.Direction == Uplink {
		from, to, addr = e.Client, e.Server, ServerAddr()
	}
	dur := f.Duration
	if dur <= 0 || f.Start+dur > r.rc.Duration {
		dur = r.rc.Duration - f.Start
	}
	ap := netip.AddrPortFrom(addr, uint16(basePort+r.i))
	switch f.Kind {
	case KindCBR:
		// The receiver listens to the run's end, as the simulator delivers
		// to its end: a probe that stops early (a burst) may leave a queue
		// of more than the default drain's worth behind it (4000 uplink
		// packets at 30–60 Mbit/s take 0.8–1.6 s), whose tail a 1 s drain
		// would count as lost.
		drain := max(endpoint.DefaultDrain, r.rc.Duration-f.Start-dur)
		rep, err := endpoint.RunCBR(ctx, r.t0, endpoint.CBR{
			ID: r.i, RateBps: f.RateBps, Size: f.Size, Start: f.Start, Duration: dur, Interval: r.rc.Interval,
			From: from, To: to, Addr: ap, Trace: f.Record, KeepOff: e.KeepOff(), Drain: drain,
		})
		if err != nil {
			return result.Flow{ID: r.i, CCA: "cbr"}, err
		}
		rep.Flow.Packets = probeRecords(rep, f)
		return rep.Flow, nil
	case KindTransport:
		rep, err := endpoint.RunTransport(ctx, r.t0, endpoint.Transport{
			ID: r.i, CCA: f.CCA, Params: f.Params, Files: f.Files, Seed: r.rc.Seed, Schedule: r.sched,
			Start: f.Start, Duration: dur, Interval: r.rc.Interval, From: from, To: to, Addr: ap,
			SndBuf: f.SndBuf, KeepOff: e.KeepOff(),
		})
		if err != nil {
			return result.Flow{ID: r.i, CCA: f.CCA}, err
		}
		return rep.Flow, nil
	}
	rep, err := endpoint.RunTCP(ctx, r.t0, endpoint.TCP{
		ID: r.i, CCA: f.CCA, Start: f.Start, Duration: dur, Interval: r.rc.Interval, From: from, To: to, Addr: ap,
	})
	if err != nil {
		return result.Flow{ID: r.i, CCA: f.CCA}, err
	}
	return rep.Flow, nil
}
