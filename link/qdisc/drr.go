package qdisc

import (
	"github.com/leolab/leolab/packet"
)

// Which flow list a flow is on (RFC 8290 §4.2's new_flows and old_flows).
const (
	listNone uint8 = iota
	listNew
	listOld
)

// flow is one flow queue of a flow-queueing discipline.
type flow struct {
	q       packet.FIFO
	deficit int   // DRR deficit counter, bytes
	quantum int   // bytes added per round (CAKE scales it per host)
	next    int32 // next flow on the same list, -1 at the tail
	list    uint8
	tag     uint64 // the key of the flow that claimed it (set associativity)
	tagged  bool
}

// flowList is an intrusive singly linked list of flow indices.
type flowList struct{ head, tail int32 }

func (l *flowList) empty() bool { return l.head < 0 }

// drr is deficit round robin (Shreedhar & Varghese, SIGCOMM 1995) over
// hashed flow queues, with RFC 8290 §4.1-4.2's two lists when sparse is
// on: a flow that becomes active joins new_flows and is served before
// old_flows until it has used its quantum or emptied, which gives sparse
// flows their near-zero queueing. SFQ runs it with sparse off (one list).
type drr struct {
	flows              []flow
	newFlows, oldFlows flowList
	quantum            int
	sparse             bool
	total              backlog
	// quantumOf, when set, gives a flow's quantum at each replenishment
	// (CAKE's per-host scaling); onOld is told when a flow joins (+1) or
	// leaves (−1) old_flows (CAKE counts bulk flows per host).
	quantumOf func(i int32) int
	onOld     func(i int32, delta int)
}

func newDRR(n, quantum int, sparse bool) drr {
	d := drr{flows: make([]flow, n), quantum: quantum, sparse: sparse}
	d.newFlows, d.oldFlows = flowList{-1, -1}, flowList{-1, -1}
	for i := range d.flows {
		d.flows[i].next, d.flows[i].quantum = -1, quantum
	}
	return d
}

func (d *drr) pushList(l *flowList, i int32, which uint8) {
	f := &d.flows[i]
	if which == listOld && d.onOld != nil {
		d.onOld(i, 1)
	}
	f.next, f.list = -1, which
	if l.tail < 0 {
		l.head = i
	} else {
		d.flows[l.tail].next = i
	}
	l.tail = i
}

func (d *drr) popList(l *flowList) int32 {
	i := l.head
	f := &d.flows[i]
	if f.list == listOld && d.onOld != nil {
		d.onOld(i, -1)
	}
	l.head = f.next
	if l.head < 0 {
		l.tail = -1
	}
	f.next, f.list = -1, listNone
	return i
}

// push appends p to flow i; RFC 8290 §4.1.1: a flow not on a list joins
// the tail of new_flows with a full quantum of deficit.
func (d *drr) push(i int, k uint64, p *packet.Packet) {
	f := &d.flows[i]
	f.q.Push(p)
	f.tag, f.tagged = k, true
	d.total.add(p)
	if f.list == listNone {
		f.deficit = f.quantum
		if d.sparse {
			d.pushList(&d.newFlows, int32(i), listNew)
		} else {
			d.pushList(&d.oldFlows, int32(i), listOld)
		}
	}
}

// head returns the flow whose turn it is (RFC 8290 §4.2): the first of
// new_flows, else of old_flows; a flow whose deficit is used up receives a
// quantum and moves to the tail of old_flows. It returns -1 when no flow
// is active.
func (d *drr) head() int32 {
	for {
		l := &d.newFlows
		if l.empty() {
			l = &d.oldFlows
			if l.empty() {
				return -1
			}
		}
		i := l.head
		f := &d.flows[i]
		if f.deficit <= 0 {
			if d.quantumOf != nil {
				f.quantum = d.quantumOf(i)
			}
			f.deficit += f.quantum
			d.popList(l)
			d.pushList(&d.oldFlows, i, listOld)
			continue
		}
		return i
	}
}

// emptied handles a head flow that had nothing to send (RFC 8290 §4.2): a
// new flow moves to the tail of old_flows when old_flows is not empty (so
// it cannot starve them by going idle and coming back), any other flow
// leaves the lists.
func (d *drr) emptied(i int32) {
	f := &d.flows[i]
	if f.list == listNew {
		d.popList(&d.newFlows)
		if !d.oldFlows.empty() {
			d.pushList(&d.oldFlows, i, listOld)
			return
		}
	} else {
		d.popList(&d.oldFlows)
	}
	f.tagged = false
}

// pop removes flow i's head packet and charges it to the flow's deficit.
func (d *drr) pop(i int32) *packet.Packet {
	f := &d.flows[i]
	p := f.q.Pop()
	if p != nil {
		d.total.sub(p)
		f.deficit -= p.Size
	}
	return p
}

// fattest returns the flow with the largest backlog in bytes, the victim
// of an overflow (RFC 8290 §4.1.2), or -1.
func (d *drr) fattest() int {
	best, bytes := -1, 0
	for i := range d.flows {
		if b := d.flows[i].q.Bytes(); b > bytes {
			best, bytes = i, b
		}
	}
	return best
}

// counted is flow i's FIFO within the total, for an AQM that pops itself.
func (d *drr) counted(i int32) counted { return counted{&d.flows[i].q, &d.total} }

// charge takes p, dequeued from flow i by an AQM, from the flow's deficit.
func (d *drr) charge(i int32, p *packet.Packet) { d.flows[i].deficit -= p.Size }

// dropFattest drops the head packet of the fattest flow (RFC 8290 §4.1.2)
// and returns its flow, or -1 when empty.
func (d *drr) dropFattest() (int, *packet.Packet) {
	i := d.fattest()
	if i < 0 {
		return -1, nil
	}
	p := d.flows[i].q.Pop()
	d.total.sub(p)
	return i, p
}
