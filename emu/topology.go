package emu

import (
	"errors"
	"fmt"
	"slices"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/netsim"
)

// errTopology is why the live engine refuses a topology whose flows take
// different links: the pump has one TUN pair and one stage per direction,
// and it cannot tell which scenario flow a packet belongs to (its
// classifier numbers 5-tuples in order of first appearance; which kernel
// connection comes first among flows that start together is the kernel's
// choice), so it cannot route by flow.
var errTopology = errors.New("links: a topology whose flows cross different links (or move) does not run live: " +
	"the emulator has one path per direction and cannot route packets by scenario flow; " +
	"run it with `leolab sim`, or give every flow the same path and no moves (that runs live as links in series)")

// topologyLinks turns a topology every flow of which crosses the same links
// with no moves into the series of those links in each direction: the live
// path of a parking lot without cross traffic. Anything else is
// errTopology.
func topologyLinks(spec netsim.Spec) (fwd, rev netsim.LinkSpec, err error) {
	route := netsim.Route{Data: spec.Flows[0].Route.Data}
	for _, f := range spec.Flows {
		if f.Kind != netsim.CBR && route.Ack == nil {
			route.Ack = f.Route.Ack // probes send no ACKs: the first TCP flow's
		}
		if len(f.Moves) > 0 || !slices.Equal(f.Route.Data, route.Data) || (f.Kind != netsim.CBR && !slices.Equal(f.Route.Ack, route.Ack)) {
			return fwd, rev, errTopology
		}
	}
	ack, meterAck := route.Ack, true
	if len(ack) == 0 { // probes only: nothing crosses the ACK direction, which still needs a stage
		ack, meterAck = route.Data[:1], false
	}
	crossed := slices.Concat(route.Data, route.Ack)
	var idle []int // hops no flow crosses: reported with zeros, as in sim
	for i := range spec.Hops {
		if !slices.Contains(crossed, i) {
			idle = append(idle, i)
		}
	}
	return series(spec.Hops, route.Data, "forward", true, idle), series(spec.Hops, ack, "reverse", meterAck, nil), nil
}

// series is hops in the order given as one link; with meter, each hop is
// metered (hops.go) and idle's hops get meters of their own, so that the
// result has one link per hop direction.
func series(hops []netsim.LinkSpec, idx []int, name string, meter bool, idle []int) netsim.LinkSpec {
	out := netsim.LinkSpec{Name: name}
	for _, i := range idx {
		out.Timed = out.Timed || hops[i].Timed
	}
	out.Build = func(drop link.DropFunc) (link.Stage, error) {
		stages := make([]link.Stage, 0, len(idx))
		var meters []*hopMeter
		for _, i := range idx {
			d := drop
			var m *hopMeter
			if meter {
				m = newHopMeter(hops[i], i)
				d = m.dropFunc(drop)
			}
			st, err := hops[i].Build(d)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", hops[i].Name, err)
			}
			if m != nil {
				m.stage = st
				meters = append(meters, m)
				st = metered{Stage: st, m: m}
			}
			stages = append(stages, st)
		}
		for _, i := range idle {
			meters = append(meters, newHopMeter(hops[i], i))
		}
		if !meter {
			return link.NewChain(stages...), nil
		}
		return &hopSeries{Chain: link.NewChain(stages...), meters: meters}, nil
	}
	return out
}
