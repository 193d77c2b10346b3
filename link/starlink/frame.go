package starlink

import (
	"time"

	"github.com/leolab/leolab/link"
)

// runFrame serves one TDMA frame starting at t: packets granted in it leave
// together at t plus the one-way delay (per-frame batches: the ACK
// compression of seed 000 §2 and DESIGN.md's fidelity notes).
func (l *Link) runFrame(t time.Duration) {
	down := t < l.outageEnd
	if down {
		l.credit = 0
	} else {
		l.serve(t)
	}
	backlog := l.buf.Len()
	l.alloc.frame(t, l.frame, l.arrivedBytes, backlog, down)
	aq := float64(backlog)
	if l.dir.AQM.Sojourn && l.dir.AQM.Mode == "adaptive" { // only adaptive mode samples it
		aq = l.sojournPackets(t)
	}
	l.aqm.frame(t, aq)
	l.arrivedBytes, l.arrivals = 0, 0
}

// serve grants the frame's bytes to the buffer in DRR order.
func (l *Link) serve(t time.Duration) {
	l.credit += l.alloc.rate * l.frame.Seconds() / 8
	release := t + l.owd(t)
	for pos := 0; ; pos++ {
		p := l.buf.next(int(l.credit))
		if p == nil {
			break
		}
		l.credit -= float64(p.Size)
		if l.slot.loss > 0 && l.draw(procServe, pos) < l.slot.loss {
			l.drop(t, p, link.DropRandom)
			continue
		}
		l.out.push(p, release)
	}
	if l.buf.Len() == 0 {
		l.credit = 0 // grants are per frame: unused capacity is not saved
	}
}

// owd is the one-way delay of a packet served at t: base, the slot's drift
// and steps, and the boundary spikes.
func (l *Link) owd(t time.Duration) time.Duration {
	d := l.dir.BaseOWD + l.slot.owd
	if l.spikes.Enabled {
		since := t - l.outageFrom
		if since < l.spikes.Head || l.nextBoundary-t <= l.spikes.Tail {
			d += l.spikes.Extra
		}
	}
	return d
}

// reconfigure applies a boundary at b: outage, allocation reset, new slot.
func (l *Link) reconfigure(b time.Duration) {
	l.outageFrom = b
	l.outageEnd = b + l.dir.Outage.Duration
	l.slot = l.drift.next(l.slots)
	l.applySlotOWD(b)
	l.alloc.setScale(l.slot.scale)
	l.alloc.reset()
	l.nextBoundary = b + l.sched.Period
}

// applySlotOWD replaces the drawn part of the current slot's OWD shift by
// Config.SlotOWD's value for the slot starting at start (base-RTT steps
// stay); without SlotOWD the drawn shift stays.
func (l *Link) applySlotOWD(start time.Duration) {
	if l.slotOWD != nil {
		l.slot.owd += l.slotOWD(start) - l.slot.drawnOWD
	}
}
