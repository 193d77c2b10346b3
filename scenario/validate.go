package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/link/qdisc"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/transport"
)

// Profiles lists the built-in path profiles.
var Profiles = append(profile.Names(), ProfileTrace)

// CBR is the flow type of constant-bit-rate probes.
const CBR = "cbr"

// Validate checks the scenario's meaning (ranges, names, combinations) and
// returns the first problem as an *Error.
func (s *Scenario) Validate() error {
	fail := func(field, format string, args ...any) error {
		return &Error{File: s.File, Line: s.lines[field], Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if s.Duration <= 0 || s.Duration > quantity.MaxDuration {
		return fail("duration", "%v: must be in (0, %v] (e.g. 60s)", s.Duration, quantity.MaxDuration)
	}
	if err := quantity.Interval(s.Interval, s.Duration); err != nil {
		return fail("interval", "%v", err)
	}
	validatePath := s.validatePath
	if s.Links != nil {
		validatePath = s.validateTopology
	}
	if err := validatePath(fail); err != nil {
		return err
	}
	if len(s.Flows) == 0 {
		return fail("flows", "empty: at least one flow is required, e.g. [{cca: cubic}]")
	}
	total := 0
	for i, f := range s.Flows {
		if err := s.validateFlow(i, f, fail); err != nil {
			return err
		}
		total += f.Count
	}
	if total > MaxFlows {
		return fail("flows", "%d flows in all (the sum of every entry's count): at most %d", total, MaxFlows)
	}
	if err := s.validateRoutes(fail); err != nil {
		return err
	}
	return s.validateLinkHandovers(fail)
}

type failFunc func(field, format string, args ...any) error

func (s *Scenario) validatePath(fail failFunc) error {
	p := &s.Path
	if !slices.Contains(Profiles, p.Profile) {
		return fail("path.profile", "%q is not a profile (allowed: %s)", p.Profile, strings.Join(Profiles, ", "))
	}
	if p.Profile == ProfileTrace && p.orbitUsed() {
		return fail("path", "loss_model, orbit and owd_source apply to profiles fixed and starlink, not trace")
	}
	if done, err := s.validateTracePath(fail); done {
		return err
	}
	if p.Profile == "fixed" {
		if p.City != "" || p.Direction != "" || len(p.Overrides) > 0 {
			return fail("path", "city, direction and overrides apply to profile starlink")
		}
		if err := quantity.LinkRate(p.RateBps); err != nil {
			return fail("path.rate", "%v", err)
		}
		if err := quantity.Delay(p.RTT); err != nil {
			return fail("path.rtt", "%v", err)
		}
		if err := quantity.Probability(p.Loss); err != nil {
			return fail("path.loss", "%v", err)
		}
		if err := validateQueue("path.queue", p.Queue, p.RateBps, fail); err != nil {
			return err
		}
		if p.Reverse.RateBps != 0 { // 0: the forward rate
			if err := quantity.LinkRate(p.Reverse.RateBps); err != nil {
				return fail("path.reverse.rate", "%v (or omit it for the forward rate)", err)
			}
		}
		if err := quantity.Probability(p.Reverse.Loss); err != nil {
			return fail("path.reverse.loss", "%v", err)
		}
		revRate := p.Reverse.RateBps
		if revRate == 0 {
			revRate = p.RateBps
		}
		if err := validateQueue("path.reverse.queue", p.Reverse.Queue, revRate, fail); err != nil {
			return err
		}
		if p.OWDSource == OWDOrbit && p.DelayFile != nil {
			return fail("path.owd_source", "orbit and path.delay_file both give the path's delay; choose one")
		}
		if err := s.validateTimeVarying(fail); err != nil {
			return err
		}
		return s.validateOrbit(fail)
	}
	if p.timeVarying() {
		return fail("path", "schedule and delay_file apply to profile fixed")
	}
	if p.Direction == "" {
		p.Direction = "downlink"
	}
	if !slices.Contains(Directions, p.Direction) {
		return fail("path.direction", "%q (allowed: %s)", p.Direction, strings.Join(Directions, ", "))
	}
	if p.RateBps != 0 || p.RTT != 0 || p.Loss != 0 || !p.Queue.IsZero() || p.Reverse.RateBps != 0 || p.Reverse.Loss != 0 || !p.Reverse.Queue.IsZero() {
		return fail("path", "rate, rtt, queue, loss and reverse apply to profile fixed; change a starlink parameter with overrides (see `leolab profile show starlink`)")
	}
	if err := s.resolveStarlink(fail); err != nil {
		return err
	}
	return s.validateOrbit(fail)
}

func validateQueue(field string, q Queue, rateBps float64, fail failFunc) error {
	err := q.config(rateBps).Validate()
	var fe *qdisc.FieldError
	if errors.As(err, &fe) {
		return fail(field+"."+fe.Field, "%s", fe.Msg)
	}
	return err
}

// MaxFlows bounds the flows of a run in all (entries × count): each costs
// ~35 KB before it records anything (measured: 167 MB for 4000 cubic
// flows), and 10 entries of count 10 000 took 8 GB and then ran out of
// memory.
const MaxFlows = 10000

// Send-buffer bounds: below 64 KiB a bulk flow is window-starved on any
// path we model; above 1 GiB is beyond any host's tcp_wmem.
const (
	minSndBuf = 64 << 10
	maxSndBuf = 1 << 30
	// maxHostBurst bounds max_rate_burst: a credit of a terabyte is hours
	// at any cloud instance's burst rate.
	maxHostBurst = 1 << 40
)

func (s *Scenario) validateFlow(i int, f Flow, fail failFunc) error {
	at := "flows[" + strconv.Itoa(i) + "]"
	if f.CCA == CBR {
		if err := quantity.LinkRate(f.RateBps); err != nil {
			return fail(at+".rate", "%v: cbr flows need a rate (e.g. 300Mbps)", err)
		}
		if f.PacketSize <= 0 || f.PacketSize > 65535 {
			return fail(at+".packet_size", "%d: cbr flows need packet_size in [1, 65535] bytes", f.PacketSize)
		}
	} else {
		info, ok := cc.Lookup(f.CCA)
		if !ok {
			return fail(at+".cca", "unknown congestion control %q (allowed: %s, %s)", f.CCA, strings.Join(cc.Names(), ", "), CBR)
		}
		for k := range f.Params {
			if _, ok := info.Params[k]; !ok {
				return fail(at+".params."+k, "unknown parameter of %s (allowed: %s)", f.CCA, strings.Join(sortedKeys(info.Params), ", "))
			}
		}
		for k := range f.Files {
			if _, ok := info.Files[k]; !ok {
				return fail(at+".params."+k, "%q is not a number, and %s has no file parameter %s (file parameters: %s)",
					f.Files[k], f.CCA, k, strings.Join(cc.FileNames(info), ", "))
			}
		}
		if f.RateBps != 0 || f.PacketSize != 0 || f.Record {
			return fail(at, "rate, packet_size and record apply to cbr flows only")
		}
		// The algorithm checks its own knobs' ranges; build it once here so
		// that a bad value is this file's error (exit 2), not the run's.
		if len(f.Params) > 0 || len(f.Files) > 0 {
			if _, err := cc.New(f.CCA, cc.Config{Params: f.Params, Files: f.Files}); err != nil {
				return fail(at+".params", "%v", err)
			}
		}
	}
	if f.Start < 0 || f.Start >= s.Duration {
		return fail(at+".start", "%v: must be in [0, duration %v)", f.Start, s.Duration)
	}
	if f.Stop != 0 && f.Stop <= f.Start {
		return fail(at+".stop", "%v: must be after start %v", f.Stop, f.Start)
	}
	if f.Count < 1 || f.Count > 10000 {
		return fail(at+".count", "%d: must be in [1, 10000]", f.Count)
	}
	if f.Bytes < 0 {
		return fail(at+".bytes", "%d: must be >= 0 (0: unlimited)", f.Bytes)
	}
	if f.SndBuf != 0 && (f.SndBuf < minSndBuf || f.SndBuf > maxSndBuf) {
		return fail(at+".sndbuf", "%d bytes: must be in [%d (64KiB), %d (1GiB)] (omit for the default 16MiB)", f.SndBuf, minSndBuf, maxSndBuf)
	}
	if f.SndBuf != 0 && f.CCA == CBR {
		return fail(at+".sndbuf", "applies to TCP flows only, not cbr")
	}
	if f.Rwnd != 0 && (f.Rwnd < minSndBuf || f.Rwnd > maxSndBuf) {
		return fail(at+".rwnd", "%d bytes: must be in [%d (64KiB), %d (1GiB)] (omit for the default 16MiB)", f.Rwnd, minSndBuf, maxSndBuf)
	}
	if f.Rwnd != 0 && f.CCA == CBR {
		return fail(at+".rwnd", "applies to TCP flows only, not cbr")
	}
	if f.MaxRateBps != 0 {
		if f.CCA == CBR {
			return fail(at+".max_rate", "applies to TCP flows only, not cbr (a cbr flow's rate is its rate)")
		}
		if err := quantity.LinkRate(f.MaxRateBps); err != nil {
			return fail(at+".max_rate", "%v (omit for no host limit)", err)
		}
	}
	if f.MaxRateBurst != 0 {
		if f.MaxRateBps == 0 {
			return fail(at+".max_rate_burst", "needs max_rate (the burst credit of the host's egress limit)")
		}
		if f.MaxRateBurst < transport.MinHostBurst || f.MaxRateBurst > maxHostBurst {
			return fail(at+".max_rate_burst", "%d bytes: must be in [%d (64KiB), %d (1TiB)] (omit for one 64KiB GSO burst)", f.MaxRateBurst, transport.MinHostBurst, int64(maxHostBurst))
		}
	}
	if err := quantity.Delay(f.ExtraRTT); err != nil {
		return fail(at+".extra_rtt", "%v", err)
	}
	return nil
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
