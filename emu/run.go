package emu

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sync"
	"time"

	"github.com/leolab/leolab/endpoint"
	"github.com/leolab/leolab/result"
)

// Flow kinds and directions of a Run.
const (
	KindTCP = "tcp" // kernel TCP bulk flow
	KindCBR = "cbr" // constant-bit-rate UDP flow

	Downlink = "downlink" // server → client (the default)
	Uplink   = "uplink"   // client → server

	// basePort is the first flow's port (iperf3's default); flow i uses
	// basePort+i.
	basePort = 5201
	// startLead is the time between the emulator's epoch and t=0 of the
	// flows, so the first flow does not start during setup.
	startLead = 100 * time.Millisecond
)

// Flow is one flow of a Run.
type Flow struct {
	Kind      string        // KindTCP or KindCBR
	CCA       string        // TCP: kernel congestion control
	RateBps   float64       // CBR: IP-level rate
	Direction string        // Downlink (default) or Uplink
	Start     time.Duration // since the run's t=0
	Duration  time.Duration // 0: until the end of the run
}

// RunConfig is a whole emulated experiment.
type RunConfig struct {
	Config
	Name     string
	Duration time.Duration
	Flows    []Flow
	Path     result.Path // copied into the result
}

// Run starts the emulator, runs the flows concurrently, and returns the
// result in the shared schema with the pump's instrument figures. Cancelling
// ctx stops the flows early; the namespaces are removed in every case.
func Run(ctx context.Context, rc RunConfig) (*result.Result, error) {
	if err := rc.validate(); err != nil {
		return nil, err
	}
	wall := time.Now()
	e, err := Start(rc.Config)
	if err != nil {
		return nil, err
	}
	flows, ferr := runFlows(ctx, e, rc)
	st, cerr := e.Close()
	if err := errors.Join(ferr, cerr); err != nil {
		return nil, err
	}
	res := &result.Result{
		Engine:     "emu",
		Scenario:   rc.Name,
		DurationS:  rc.Duration.Seconds(),
		WallS:      time.Since(wall).Seconds(),
		Path:       rc.Path,
		Flows:      flows,
		Links:      st.Links,
		Instrument: st.Instrument(),
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
		case f.Kind != KindTCP && f.Kind != KindCBR:
			return fmt.Errorf("emu run: flow %d: kind %q: want %s or %s", i, f.Kind, KindTCP, KindCBR)
		case f.Direction != "" && f.Direction != Downlink && f.Direction != Uplink:
			return fmt.Errorf("emu run: flow %d: direction %q: want %s or %s", i, f.Direction, Downlink, Uplink)
		case f.Start < 0 || f.Start >= rc.Duration:
			return fmt.Errorf("emu run: flow %d: start %v outside the run's %v", i, f.Start, rc.Duration)
		}
	}
	return nil
}

// runFlows runs every flow in its own goroutine. Flow times are shifted by
// startLead from the emulator's epoch and reported relative to t=0.
func runFlows(ctx context.Context, e *Emulator, rc RunConfig) ([]result.Flow, error) {
	out := make([]result.Flow, len(rc.Flows))
	errs := make([]error, len(rc.Flows))
	epoch := e.Epoch().Add(startLead)
	var wg sync.WaitGroup
	for i, f := range rc.Flows {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = runFlow(ctx, e, epoch, i, f, rc.Duration)
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

func runFlow(ctx context.Context, e *Emulator, epoch time.Time, i int, f Flow, total time.Duration) (result.Flow, error) {
	from, to, addr := e.Server, e.Client, ClientAddr()
	if f.Direction == Uplink {
		from, to, addr = e.Client, e.Server, ServerAddr()
	}
	dur := f.Duration
	if dur <= 0 || f.Start+dur > total {
		dur = total - f.Start
	}
	ap := netip.AddrPortFrom(addr, uint16(basePort+i))
	if f.Kind == KindCBR {
		rep, err := endpoint.RunCBR(ctx, epoch, endpoint.CBR{
			ID: i, RateBps: f.RateBps, Start: f.Start, Duration: dur, From: from, To: to, Addr: ap,
		})
		if err != nil {
			return result.Flow{ID: i, CCA: "cbr"}, err
		}
		return rep.Flow, nil
	}
	rep, err := endpoint.RunTCP(ctx, epoch, endpoint.TCP{
		ID: i, CCA: f.CCA, Start: f.Start, Duration: dur, From: from, To: to, Addr: ap,
	})
	if err != nil {
		return result.Flow{ID: i, CCA: f.CCA}, err
	}
	return rep.Flow, nil
}
