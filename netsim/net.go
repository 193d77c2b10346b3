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
	evForward
	evReverse
	evAckDelay
	evStart
	evCBR
	evInterval
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

	fwd, rev      *linkState
	flows         []*flow
	ackDelays     []*link.Delay // per flow, nil without ExtraDelay
	wakes         [evKinds][]wake
	intervalIndex int
}

func newNet(spec *Spec) (*net, error) {
	n := &net{spec: spec, loop: sim.NewLoop()}
	var err error
	if n.fwd, err = newLinkState(spec.Forward, "forward"); err != nil {
		return nil, err
	}
	if n.rev, err = newLinkState(spec.Reverse, "reverse"); err != nil {
		return nil, err
	}
	n.fwd.net, n.rev.net = n, n
	for i := range evKinds {
		n.wakes[i] = make([]wake, len(spec.Flows))
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
	case evForward:
		n.pollForward(now)
	case evReverse:
		n.pollReverse(now)
	case evAckDelay:
		n.pollAckDelay(now, idx)
	case evCBR:
		n.flows[idx].sendCBR(now)
	}
}

// sendData puts a data or probe packet on the forward link.
func (n *net) sendData(now time.Duration, p *packet.Packet) {
	if n.spec.Tap != nil {
		n.spec.Tap.Packet(now, SenderOut, p)
	}
	n.fwd.stage.Enqueue(now, p)
	n.ensure(evForward, 0, n.fwd.stage.NextEvent())
}

// sendAck puts an ACK on the reverse link.
func (n *net) sendAck(now time.Duration, p *packet.Packet) {
	if n.spec.Tap != nil {
		n.spec.Tap.Packet(now, ReceiverOut, p)
	}
	n.rev.stage.Enqueue(now, p)
	n.ensure(evReverse, 0, n.rev.stage.NextEvent())
}

func (n *net) pollForward(now time.Duration) {
	for p := n.fwd.stage.Dequeue(now); p != nil; p = n.fwd.stage.Dequeue(now) {
		n.fwd.delivered += int64(p.Size)
		n.fwd.packets++
		if n.spec.Tap != nil {
			n.spec.Tap.Packet(now, ReceiverIn, p)
		}
		n.flows[p.Flow].arrive(now, p)
		n.pool.Put(p)
	}
	n.ensure(evForward, 0, n.fwd.stage.NextEvent())
}

func (n *net) pollReverse(now time.Duration) {
	for p := n.rev.stage.Dequeue(now); p != nil; p = n.rev.stage.Dequeue(now) {
		n.rev.delivered += int64(p.Size)
		n.rev.packets++
		if d := n.ackDelays[p.Flow]; d != nil {
			d.Enqueue(now, p)
			n.ensure(evAckDelay, int(p.Flow), d.NextEvent())
			continue
		}
		n.flows[p.Flow].ack(now, p)
		n.pool.Put(p)
	}
	n.ensure(evReverse, 0, n.rev.stage.NextEvent())
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
	st := &linkState{name: ls.Name}
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
