package emu

import (
	"slices"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/result"
)

// hopMeter counts what one direction of a topology's link delivers and
// drops in the live series, so that a topology's result has one link per
// hop direction, as the simulator's (spec.Hops' order and names). A hop
// no flow crosses has no stage and reports zeros.
type hopMeter struct {
	out   result.Link // Name, Hop, Direction; totals and samples
	order int         // index in spec.Hops: the simulator's result order
	stage link.Stage  // the hop's own stage, nil for an uncrossed hop
	shift time.Duration

	intervalBytes    int64
	drops, lastDrops [link.NumDropCauses]int64
}

func newHopMeter(spec netsim.LinkSpec, order int) *hopMeter {
	return &hopMeter{out: result.Link{Name: spec.Name, Hop: spec.Hop, Direction: spec.Direction}, order: order}
}

// dropFunc counts a drop of the hop, then hands it to the way's drop.
func (m *hopMeter) dropFunc(drop link.DropFunc) link.DropFunc {
	return func(now time.Duration, p *packet.Packet, cause link.DropCause) {
		if cause < link.NumDropCauses {
			m.drops[cause]++
		}
		drop(now, p, cause)
	}
}

// sample appends the hop's interval ending now (on the pump's axis) with
// label t.
func (m *hopMeter) sample(now time.Duration, t float64) {
	s := result.LinkSample{T: t, DeliveredBytes: m.intervalBytes}
	if o, ok := m.stage.(link.Observable); ok {
		sn := o.Snapshot(now - m.shift)
		s.AllocMbps = sn.RateBps / 1e6
		s.QueuePkts = sn.QueuePackets
	}
	var d [link.NumDropCauses]int64
	for c := range d {
		d[c] = m.drops[c] - m.lastDrops[c]
	}
	s.Drops = netsim.DropCounts(&d)
	m.lastDrops = m.drops
	m.out.Intervals = append(m.out.Intervals, s)
	m.intervalBytes = 0
}

// link is the hop's result entry.
func (m *hopMeter) link() result.Link {
	l := m.out
	l.Drops = netsim.DropCounts(&m.drops)
	return l
}

// metered is a hop's stage counting the bytes it releases.
type metered struct {
	link.Stage
	m *hopMeter
}

// Dequeue releases from the hop and counts what it releases.
func (s metered) Dequeue(now time.Duration) *packet.Packet {
	p := s.Stage.Dequeue(now)
	if p != nil {
		s.m.out.Delivered += int64(p.Size)
		s.m.intervalBytes += int64(p.Size)
	}
	return p
}

// Snapshot is the hop's state when it is Observable.
func (s metered) Snapshot(now time.Duration) link.Snapshot {
	if o, ok := s.Stage.(link.Observable); ok {
		return o.Snapshot(now)
	}
	return link.Snapshot{}
}

// hopSeries is one direction of a live topology: its hops in series, each
// metered, plus meters of the hops no flow crosses (on the forward
// series only, so that each hop is reported once).
type hopSeries struct {
	*link.Chain
	meters []*hopMeter
}

// hopMeters finds the meters of a way's stage (under a link.Shift, whose
// offset the meters' snapshots take), nil for a stage that is no
// topology's series.
func hopMeters(st link.Stage) []*hopMeter {
	var by time.Duration
	if s, ok := st.(link.Shift); ok {
		st, by = s.S, s.By
	}
	hs, ok := st.(*hopSeries)
	if !ok {
		return nil
	}
	for _, m := range hs.meters {
		m.shift = by
	}
	return hs.meters
}

// hopLinks are the per-hop result entries of both ways, in the
// simulator's order; nil when the run is no topology.
func hopLinks(ways []way) []result.Link {
	var ms []*hopMeter
	for i := range ways {
		ms = append(ms, ways[i].hops...)
	}
	if ms == nil {
		return nil
	}
	slices.SortFunc(ms, func(a, b *hopMeter) int { return a.order - b.order })
	out := make([]result.Link, len(ms))
	for i, m := range ms {
		out[i] = m.link()
	}
	return out
}
