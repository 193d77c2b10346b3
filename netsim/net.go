package netsim

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
)

// Event kinds, packed into the low bits of the event argument with the
// component index above them.
const (
	evSender = iota
	evReceiver
	evHop
	evAckDelay
	evStart
	evCBR
	evInterval
	evMove
	evKinds
	evBits = 4
)

func arg(kind, idx int) int { return idx<<evBits | kind }

// wake is one component's single pending wake-up.
type wake struct{ at time.Duration }

// net is one run in progress.
type net struct {
	spec *Spec
	loop *sim.Loop
	pool packet.Pool

	// hops are the run's one-way links: Spec.Hops, or Forward (0) and
	// Reverse (1); routes are the paths over them packets take.
	hops          []*linkState
	stages        []link.Stage // hops[i].stage, for the per-packet path
	routes        routeTable
	flows         []*flow
	ackDelays     []*link.Delay // per flow, nil without ExtraDelay
	wakes         [evKinds][]wake
	intervalIndex int
}

func newNet(spec *Spec) (*net, error) {
	n := &net{spec: spec, loop: sim.NewLoop()}
	hops, roles := spec.Hops, []string(nil)
	if hops == nil {
		hops, roles = []LinkSpec{spec.Forward, spec.Reverse}, []string{"forward", "reverse"}
	}
	for i, ls := range hops {
		role := fmt.Sprintf("hops[%d]", i)
		if roles != nil {
			role = roles[i]
		}
		st, err := newLinkState(ls, role)
		if err != nil {
			return nil, err
		}
		st.net = n
		n.hops = append(n.hops, st)
		n.stages = append(n.stages, st.stage)
	}
	for i := range evKinds {
		size := len(spec.Flows)
		if i == evHop {
			size = len(n.hops)
		}
		n.wakes[i] = make([]wake, size)
		for j := range n.wakes[i] {
			n.wakes[i][j].at = sim.Never
		}
	}
	n.ackDelays = make([]*link.Delay, len(spec.Flows))
	for i := range spec.Flows {
		f, err := newFlow(n, i, &spec.Flows[i])
		if err != nil {
			return nil, fmt.Errorf("flows[%d]: %w", i, err)
		}
		if err := n.routeFlow(f); err != nil {
			return nil, fmt.Errorf("flows[%d]: %w", i, err)
		}
		n.flows = append(n.flows, f)
		if d := spec.Flows[i].ExtraDelay; d > 0 {
			if n.ackDelays[i], err = link.NewDelay(d); err != nil {
				return nil, fmt.Errorf("flows[%d].extra_delay: %w", i, err)
			}
		}
	}
	return n, nil
}

// ensure arranges a wake-up of (kind, idx) at t unless one is due earlier.
func (n *net) ensure(kind, idx int, t time.Duration) {
	if t == sim.Never {
		return
	}
	t = max(t, n.loop.Now()) // the loop fires past times now; keep w.at equal to it
	w := &n.wakes[kind][idx]
	if t >= w.at {
		return
	}
	w.at = t
	n.loop.Schedule(t, n, arg(kind, idx))
}

// Fire dispatches an event; superseded wake-ups are ignored.
func (n *net) Fire(now time.Duration, a int) {
	kind, idx := a&(1<<evBits-1), a>>evBits
	switch kind {
	case evStart:
		n.flows[idx].start(now)
		return
	case evInterval:
		n.sample(now)
		return
	case evMove:
		n.flows[idx].move()
		return
	}
	w := &n.wakes[kind][idx]
	if w.at != now {
		return
	}
	w.at = sim.Never
	switch kind {
	case evSender:
		n.flows[idx].pollSender(now)
	case evReceiver:
		n.flows[idx].pollReceiver(now)
	case evHop:
		n.pollHop(now, idx)
	case evAckDelay:
		n.pollAckDelay(now, idx)
	case evCBR:
		n.flows[idx].sendCBR(now)
	}
}

// deliverAck hands an ACK at the end of its route to its sender, through
// the flow's extra delay if it has one.
func (n *net) deliverAck(now time.Duration, p *packet.Packet) {
	if d := n.ackDelays[p.Flow]; d != nil {
		d.Enqueue(now, p)
		n.ensure(evAckDelay, int(p.Flow), d.NextEvent())
		return
	}
	n.flows[p.Flow].ack(now, p)
	n.pool.Put(p)
}

// routeFlow interns a flow's route and moves, and schedules the moves.
func (n *net) routeFlow(f *flow) error {
	fs := f.spec
	var err error
	if n.spec.Hops == nil { // data over Forward (hop 0), ACKs over Reverse (1)
		f.route, err = n.routes.routeIDs(Route{Data: []int{0}, Ack: []int{1}})
		return err
	}
	if f.route, err = n.routes.routeIDs(fs.Route); err != nil {
		return err
	}
	for _, m := range fs.Moves {
		r, err := n.routes.routeIDs(m.Route)
		if err != nil {
			return err
		}
		f.moves = append(f.moves, r)
		n.loop.Schedule(m.At, n, arg(evMove, f.idx))
	}
	return nil
}

func (n *net) pollAckDelay(now time.Duration, idx int) {
	d := n.ackDelays[idx]
	for p := d.Dequeue(now); p != nil; p = d.Dequeue(now) {
		n.flows[idx].ack(now, p)
		n.pool.Put(p)
	}
	n.ensure(evAckDelay, idx, d.NextEvent())
}

// linkState is one direction of the path with its counters.
type linkState struct {
	name      string
	hop, dir  string
	stage     link.Stage
	net       *net
	drops     [link.NumDropCauses]int64
	lastDrops [link.NumDropCauses]int64
	delivered int64 // bytes released at the far end
	packets   int64 // packets released at the far end
	lastDeliv int64
	samples   []linkSample
}

type linkSample struct {
	t         time.Duration
	snap      link.Snapshot
	delivered int64
	drops     [link.NumDropCauses]int64
}

func newLinkState(ls LinkSpec, role string) (*linkState, error) {
	st := &linkState{name: ls.Name, hop: ls.Hop, dir: ls.Direction}
	if st.name == "" {
		st.name = role
	}
	stage, err := ls.Build(st.drop)
	if err != nil {
		return nil, fmt.Errorf("path: %s link: %w", role, err)
	}
	st.stage = stage
	return st, nil
}

func (l *linkState) drop(now time.Duration, p *packet.Packet, c link.DropCause) {
	l.drops[c]++
	if int(p.Flow) < len(l.net.flows) {
		f := l.net.flows[p.Flow]
		f.dropped++
		if f.records != nil && p.Kind == packet.Probe {
			f.records[p.Seq].arrival = -1
		}
	}
	l.net.pool.Put(p)
}
