package netsim

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/leolab/leolab/packet"
)

// Route is the hops a flow's packets cross, as indices into Spec.Hops in
// the order crossed: Data for data and probes from the sender, Ack for the
// ACKs back (empty for a probe flow, which sends none).
type Route struct {
	Data, Ack []int
}

// Move re-routes a flow at time At: packets the flow's endpoints send from
// At on take Route; packets already in the network finish the route they
// were sent on (a route is fixed when a packet enters the network, as a
// routing change in a router's table leaves the packets already past it
// alone). A move therefore drops nothing and reorders only what the two
// routes' delays imply: a packet sent after a move to a shorter route may
// arrive before one sent earlier on the longer route.
type Move struct {
	At    time.Duration
	Route Route
}

// Route-table bounds: packet.Packet carries a route as a uint16 and a
// position on it as a uint8.
const (
	maxRoutes   = math.MaxUint16 + 1
	maxRouteLen = math.MaxUint8 + 1
)

// validateRoutes checks the flows' routes against Spec.Hops.
func (s *Spec) validateRoutes() []error {
	var errs []error
	if s.Hops == nil {
		for i, f := range s.Flows {
			if f.Route.Data != nil || f.Route.Ack != nil || f.Moves != nil {
				errs = append(errs, fmt.Errorf("flows[%d]: a route needs hops", i))
			}
		}
		return errs
	}
	if len(s.Hops) == 0 {
		return append(errs, fmt.Errorf("hops: empty"))
	}
	for i, h := range s.Hops {
		if h.Build == nil {
			errs = append(errs, fmt.Errorf("hops[%d]: no builder", i))
		}
	}
	check := func(at string, r Route, cbr bool) {
		if len(r.Data) == 0 || (!cbr && len(r.Ack) == 0) {
			errs = append(errs, fmt.Errorf("%s: a route needs data hops and (for TCP) ack hops", at))
		}
		for _, hops := range [][]int{r.Data, r.Ack} {
			if len(hops) > maxRouteLen {
				errs = append(errs, fmt.Errorf("%s: %d hops, at most %d", at, len(hops), maxRouteLen))
			}
			for j, h := range hops {
				if h < 0 || h >= len(s.Hops) {
					errs = append(errs, fmt.Errorf("%s: hop %d not in [0, %d)", at, h, len(s.Hops)))
				} else if slices.Contains(hops[:j], h) {
					errs = append(errs, fmt.Errorf("%s: hop %d crossed twice", at, h))
				}
			}
		}
	}
	for i, f := range s.Flows {
		at := fmt.Sprintf("flows[%d]", i)
		check(at+".route", f.Route, f.Kind == CBR)
		prev := time.Duration(-1)
		for j, m := range f.Moves {
			mat := fmt.Sprintf("%s.moves[%d]", at, j)
			if m.At <= prev || m.At < 0 || m.At >= s.Duration {
				errs = append(errs, fmt.Errorf("%s.at %v: must be in [0, duration) and after the previous move", mat, m.At))
			}
			prev = m.At
			check(mat+".route", m.Route, f.Kind == CBR)
		}
	}
	return errs
}

// routeTable interns routes: a packet carries the index of its route, and
// identical routes share one entry.
type routeTable struct {
	routes [][]int
	index  map[string]uint16
}

// add returns the index of hops, adding it if new.
func (t *routeTable) add(hops []int) (uint16, error) {
	key := fmt.Sprint(hops)
	if i, ok := t.index[key]; ok {
		return i, nil
	}
	if len(t.routes) >= maxRoutes {
		return 0, fmt.Errorf("more than %d distinct routes", maxRoutes)
	}
	if t.index == nil {
		t.index = map[string]uint16{}
	}
	i := uint16(len(t.routes))
	t.routes = append(t.routes, slices.Clone(hops))
	t.index[key] = i
	return i, nil
}

// flowRoute is a flow's route as route-table entries.
type flowRoute struct{ data, ack wayRoute }

// wayRoute is one direction's route: its table index, first hop and the
// hops after it.
type wayRoute struct {
	id    uint16
	first int
	left  uint8
}

// routeIDs interns a flow's route.
func (t *routeTable) routeIDs(r Route) (flowRoute, error) {
	var out flowRoute
	var err error
	if out.data, err = t.way(r.Data); err != nil {
		return out, err
	}
	if len(r.Ack) > 0 {
		out.ack, err = t.way(r.Ack)
	}
	return out, err
}

func (t *routeTable) way(hops []int) (wayRoute, error) {
	id, err := t.add(hops)
	return wayRoute{id: id, first: hops[0], left: uint8(len(hops) - 1)}, err
}

// send puts p on the first hop of route r.
func (n *net) send(now time.Duration, p *packet.Packet, r wayRoute) {
	if t := n.spec.Tap; t != nil {
		side := SenderOut
		if p.Kind == packet.Ack {
			side = ReceiverOut
		}
		t.Packet(now, side, p)
	}
	p.Route, p.HopsLeft = r.id, r.left
	st := n.stages[r.first]
	st.Enqueue(now, p)
	n.ensure(evHop, r.first, st.NextEvent())
}

// pollHop releases what hop h delivers: each packet goes on to the next hop
// of its route, or to its flow's end when the route ends there.
func (n *net) pollHop(now time.Duration, h int) {
	l := n.hops[h]
	for p := l.stage.Dequeue(now); p != nil; p = l.stage.Dequeue(now) {
		l.delivered += int64(p.Size)
		l.packets++
		if p.HopsLeft > 0 {
			route := n.routes.routes[p.Route]
			nh := route[len(route)-int(p.HopsLeft)]
			p.HopsLeft--
			st := n.stages[nh]
			st.Enqueue(now, p)
			n.ensure(evHop, nh, st.NextEvent())
			continue
		}
		if p.Kind == packet.Ack {
			n.deliverAck(now, p)
			continue
		}
		if t := n.spec.Tap; t != nil {
			t.Packet(now, ReceiverIn, p)
		}
		n.flows[p.Flow].arrive(now, p)
		n.pool.Put(p)
	}
	n.ensure(evHop, h, l.stage.NextEvent())
}

// move applies a flow's next move.
func (f *flow) move() {
	if f.nextMove < len(f.moves) {
		f.route = f.moves[f.nextMove]
		f.nextMove++
	}
}
