package emu

import (
	"errors"
	"fmt"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/result"
)

// KernelCCA maps a scenario's congestion control to the Linux kernel's
// module of the same algorithm: leolab's cubic and reno implement
// tcp_cubic.c and tcp_cong.c (Reno), and bbr1 is BBR v1, which is what
// mainline Linux's tcp_bbr.c ("bbr") is. Anything else has no kernel
// counterpart here and runs on leolab's transport over UDP.
func KernelCCA(cca string) (string, bool) {
	switch cca {
	case "cubic", "reno":
		return cca, true
	case "bbr1":
		return "bbr", true
	}
	return "", false
}

// SpecOptions adjust how a simulator spec runs live.
type SpecOptions struct {
	// Starlink, when set, replaces the spec's links with the live Starlink
	// path of this profile (StarlinkPath), its schedule at the real UTC
	// time; the simulator's epoch is drawn from the seed instead, which
	// has no meaning on the wall clock.
	Starlink *profile.StarlinkProfile
	// OwnTransport runs every TCP flow on leolab's transport, even when the
	// kernel has the algorithm (KernelCCA).
	OwnTransport bool
}

// FromSpec turns a simulator spec (package scenario builds it) into a live
// run: the same links (or the live Starlink path), flows and sampling.
// Forward (the data direction) becomes the downlink unless the spec's
// direction is uplink. TCP flows run on the kernel (KernelCCA) or on
// leolab's transport; CBR flows on the CBR endpoint.
func FromSpec(spec netsim.Spec, opt SpecOptions) (RunConfig, error) {
	if err := spec.Validate(); err != nil {
		return RunConfig{}, fmt.Errorf("emu: %w", err)
	}
	if spec.SimOnly != "" {
		return RunConfig{}, fmt.Errorf("emu: %s", spec.SimOnly)
	}
	if spec.Hops != nil { // a topology (topology.go)
		var err error
		if spec.Forward, spec.Reverse, err = topologyLinks(spec); err != nil {
			return RunConfig{}, fmt.Errorf("emu: %w", err)
		}
	}
	dir := Downlink
	if spec.Direction == Uplink {
		dir = Uplink
	}
	rc := RunConfig{
		Name:     spec.Name,
		Seed:     spec.Seed,
		Duration: spec.Duration,
		Interval: spec.Interval,
		ECN:      spec.ECN,
		Path: result.Path{
			Profile: spec.Profile, City: spec.City, Direction: spec.Direction,
			BaseRTTMs: float64(spec.BaseRTT) / float64(time.Millisecond),
		},
	}
	rc.Config.Interval = spec.Interval
	if dir == Uplink {
		rc.Uplink, rc.Downlink = spec.Forward.Build, spec.Reverse.Build
	} else {
		rc.Uplink, rc.Downlink = spec.Reverse.Build, spec.Forward.Build
	}
	if opt.Starlink == nil {
		timedLinks(&rc, spec)
	}
	if p := opt.Starlink; p != nil {
		rc.Epoch = time.Now()
		rc.Uplink, rc.Downlink = StarlinkPath(p, rc.Epoch, spec.Seed)
		rc.Schedule = func(t0 time.Time) cc.Schedule { return StarlinkSchedule(p, t0) }
	}
	var errs []error
	for i, fs := range spec.Flows {
		f, err := liveFlow(fs, dir, opt.OwnTransport)
		if err != nil {
			errs = append(errs, fmt.Errorf("emu: flows[%d]: %w", i, err))
		}
		rc.Flows = append(rc.Flows, f)
	}
	return rc, errors.Join(errs...)
}

// liveFlow translates one flow, refusing what the live engine cannot do.
func liveFlow(fs netsim.FlowSpec, dir string, own bool) (Flow, error) {
	f := Flow{Direction: dir, Start: fs.Start, Params: fs.Params, Files: fs.Files, SndBuf: fs.SndBuf}
	if fs.Stop > 0 {
		f.Duration = fs.Stop - fs.Start
	}
	switch {
	case fs.Bytes > 0:
		return f, errors.New("bytes-limited flows are not supported live (bulk only)")
	case fs.ExtraDelay > 0:
		return f, errors.New("extra_rtt is not supported live (one path for all flows)")
	case fs.MaxRateBps > 0:
		return f, errors.New("max_rate is not supported live (the sending host's egress limit is simulated only)")
	case fs.Rwnd > 0:
		return f, errors.New("rwnd is not supported live (the kernel receiver's window follows its namespace's tcp_rmem)")
	}
	if fs.Kind == netsim.CBR {
		f.Kind, f.CCA, f.RateBps, f.Size, f.Record = KindCBR, "cbr", fs.RateBps, fs.PacketSize, fs.Record
		return f, nil
	}
	if k, ok := KernelCCA(fs.CCA); ok && !own {
		if len(fs.Params) > 0 || len(fs.Files) > 0 {
			return f, fmt.Errorf("cca %s runs on the kernel (%s), which takes no params", fs.CCA, k)
		}
		f.Kind, f.CCA = KindTCP, k
		return f, nil
	}
	if _, ok := cc.Lookup(fs.CCA); !ok {
		return f, fmt.Errorf("unknown congestion control %q", fs.CCA)
	}
	f.Kind, f.CCA = KindTransport, fs.CCA
	return f, nil
}
