package scenario

import (
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/link/schedule"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/sim"
)

// ProfileTopology is the result's path profile of a run over links.
const ProfileTopology = "topology"

// topologySpec builds a topology's hops: links[i]'s data direction is hop
// i and its ACK direction hop len(links)+i. Each direction is a fixed
// path's direction (fixedPath): loss → queue → server → rtt/2, with its
// schedule and delay file when it has them (timedChain, as
// timeVaryingPath). The run's handover schedule is the one link delay file
// that gives handovers (validateLinkHandovers).
func (s *Scenario) topologySpec(spec *netsim.Spec) {
	n := len(s.Links)
	spec.Profile = ProfileTopology
	spec.Hops = make([]netsim.LinkSpec, 2*n)
	for i := range s.Links {
		h := s.Links[i]
		spec.Hops[i] = netsim.LinkSpec{Name: h.Name + ".forward", Hop: h.Name, Direction: "forward", Timed: h.timed(),
			Build: func(drop link.DropFunc) (link.Stage, error) { return s.hopStage(h, false, drop) }}
		spec.Hops[n+i] = netsim.LinkSpec{Name: h.Name + ".reverse", Hop: h.Name, Direction: "reverse", Timed: h.timed(),
			Build: func(drop link.DropFunc) (link.Stage, error) { return s.hopStage(h, true, drop) }}
	}
	if k := s.handoverLink(); k >= 0 {
		h := s.Links[k]
		spec.Schedule = handoverSchedule(h.pathLog, h.DelayFile.Offset, h.handoverErr, s.Seed)
	}
	spec.BaseRTT = s.baseRTT(s.Flows[0])
	if !s.EpochUTC.IsZero() {
		spec.EpochUTC = s.EpochUTC.Format(time.RFC3339Nano)
	}
}

// hopStage builds one direction of a link; each draws its random numbers
// from streams named after the link.
func (s *Scenario) hopStage(h Hop, reverse bool, drop link.DropFunc) (link.Stage, error) {
	dir, q, loss, rate := "forward", h.Queue, h.Loss, h.RateBps
	if reverse {
		dir, q, loss = "reverse", h.Reverse.Queue, h.Reverse.Loss
		if h.Reverse.RateBps != 0 {
			rate = h.Reverse.RateBps
		}
	}
	name := "link/" + h.Name + "/" + dir
	rng, qrng := sim.Stream(s.Seed, name+"/loss"), sim.Stream(s.Seed, name+"/qdisc")
	half := h.RTT / 2
	if reverse {
		half = h.RTT - half
	}
	if !h.timed() {
		return chain(rate, q, loss, half, rng, qrng, drop)
	}
	pr := scheduleProfiles(h.RateBps, h.RTT, h.Loss, h.Schedule)
	if h.pathLog != nil {
		pr.path, pr.outages = h.pathLog.Delay(h.DelayFile.Offset, h.DelayFile.HandoverOutage)
	}
	rp, lp := pr.rate, pr.loss
	if reverse {
		lp = schedule.Constant(h.Reverse.Loss)
		if h.Reverse.RateBps != 0 {
			rp = schedule.Constant(h.Reverse.RateBps)
		}
	}
	return timedChain(rp, q, lp, pr, rng, qrng, drop)
}

// timed reports whether the link changes during the run.
func (h *Hop) timed() bool { return len(h.Schedule) > 0 || h.DelayFile != nil }

// netsimRoute translates a validated flow's path and moves to hop indices.
func (s *Scenario) netsimRoute(f Flow) (netsim.Route, []netsim.Move) {
	route := s.hopRoute(f.Route)
	var moves []netsim.Move
	for _, m := range f.Moves {
		moves = append(moves, netsim.Move{At: m.At, Route: s.hopRoute(m.Route)})
	}
	return route, moves
}

// hopRoute is a path's data hops and, backwards, its ACK hops (a one-link
// topology's flows may omit their path).
func (s *Scenario) hopRoute(names []string) netsim.Route {
	if names == nil {
		names = []string{s.Links[0].Name}
	}
	var r netsim.Route
	for k := range names {
		r.Data = append(r.Data, s.linkIndex(names[k]))
		r.Ack = append(r.Ack, len(s.Links)+s.linkIndex(names[len(names)-1-k]))
	}
	return r
}

// baseRTT is a flow's idle round trip at time 0: its links' rtt (and
// twice their delay files' one-way delay at time 0) plus its extra_rtt.
func (s *Scenario) baseRTT(f Flow) time.Duration {
	if s.Links == nil {
		return 0
	}
	names := f.Route
	if names == nil {
		names = []string{s.Links[0].Name}
	}
	rtt := f.ExtraRTT
	for _, n := range names {
		h := &s.Links[s.linkIndex(n)]
		rtt += h.RTT
		if h.pathLog != nil {
			owd, _ := h.pathLog.Delay(h.DelayFile.Offset, false)
			rtt += 2 * time.Duration(owd.Value(0)*float64(time.Second))
		}
	}
	return rtt
}

// topologyRateBps is what all links' data directions together serve at
// most (every hop moves its packets), for the budget.
func (s *Scenario) topologyRateBps() float64 {
	var sum float64
	for _, h := range s.Links {
		r := h.RateBps
		for _, c := range h.Schedule {
			if c.HasRate {
				r = max(r, c.RateBps)
			}
		}
		sum += r
	}
	return sum
}
