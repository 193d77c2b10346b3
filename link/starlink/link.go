package starlink

import (
	"errors"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/profile"
)

// never is a time that never comes (sim.Never; link cannot import sim).
const never = time.Duration(1<<63 - 1)

// Config is what a Link needs besides its profile.
type Config struct {
	// Rand is the link's own stream (sim.Stream(seed, "starlink/downlink")).
	// Construction draws from it the seed of the per-slot drift's stream
	// (so a slot's rate and OWD depend on the seed and the slot's index
	// alone, not on the traffic: the simulator and a live run of the same
	// seed and epoch see the same slots) and then the key of the per-packet
	// draws (outage arrival loss, AQM, random loss), which with
	// tdma.keyed_draws are common random numbers keyed by TDMA frame and
	// position in the frame (draws.go) and otherwise come from Rand in turn.
	Rand *rand.Rand
	// Drop receives every discarded packet with its cause.
	Drop link.DropFunc
	// Epoch is the time since the start of the UTC minute at t = 0.
	Epoch time.Duration
	// SlotSeed seeds the base-RTT steps; give a terminal's downlink and
	// uplink the same value so both carry the same steps.
	SlotSeed uint64
	// SlotOWD, when set, replaces the drift's per-slot OWD shift (uniform
	// on [0, owd_max]) with its value for the slot starting at the given
	// run time (before 0 for the slot the run starts in): e.g. an orbit
	// path's propagation delay above its minimum. The draw still happens,
	// so the slots' rates and losses stay those of the same seed without
	// it; base-RTT steps are still added.
	SlotOWD func(slotStart time.Duration) time.Duration
}

// Link is one direction of a Starlink access link: (PoP limiter, downlink
// only) → AQM → shared head-drop buffer with per-flow DRR → demand-driven
// allocation served in TDMA frames, with outages, resets and drift at each
// reconfiguration → random loss → base one-way delay. It implements
// link.Stage and link.Observable; it is not safe for concurrent use.
type Link struct {
	dir   profile.Access
	frame time.Duration
	rng   *rand.Rand // per-packet draws without tdma.keyed_draws
	keyed bool       // tdma.keyed_draws: per-packet draws keyed (draws.go)
	key   uint64     // their key
	slots *rand.Rand // per-slot drift draws
	drop  link.DropFunc
	// slotOWD replaces the drawn OWD shift (Config.SlotOWD); nil: drawn.
	slotOWD func(time.Duration) time.Duration

	buf    *buffer
	alloc  allocator
	aqm    aqm
	drift  drifter
	pop    *popLimiter // nil on the uplink or when disabled
	out    line
	sched  Schedule
	spikes profile.Spikes

	frameIdx     int64         // index of the next frame to run (starts at k*frame)
	credit       float64       // grant bytes carried while backlogged
	arrivedBytes int           // offered to the buffer during the current frame
	arrivals     int           // packets offered during the current frame (draws' positions)
	slot         slotState     // current slot's drift
	nextBoundary time.Duration // next reconfiguration
	outageFrom   time.Duration // last boundary
	outageEnd    time.Duration
}

var (
	_ link.Stage      = (*Link)(nil)
	_ link.Observable = (*Link)(nil)
)

// NewDownlink returns the downlink (satellite queue, PoP limiter) of p.
func NewDownlink(p *profile.StarlinkProfile, cfg Config) (*Link, error) {
	l, err := newLink(p, &p.Downlink, cfg)
	if err == nil && p.PoP.Enabled {
		l.pop = &popLimiter{rate: p.PoP.Rate, limit: p.PoP.LimitPackets}
	}
	return l, err
}

// NewUplink returns the uplink (terminal queue) of p.
func NewUplink(p *profile.StarlinkProfile, cfg Config) (*Link, error) {
	return newLink(p, &p.Uplink, cfg)
}

func newLink(p *profile.StarlinkProfile, a *profile.Access, cfg Config) (*Link, error) {
	if p == nil || cfg.Rand == nil || cfg.Drop == nil {
		return nil, errors.New("starlink link: profile, Config.Rand and Config.Drop are required")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	l := &Link{
		dir:     *a,
		frame:   p.TDMA.Frame,
		rng:     cfg.Rand,
		keyed:   p.TDMA.KeyedDraws,
		slots:   rand.New(rand.NewPCG(cfg.Rand.Uint64(), cfg.Rand.Uint64())),
		drop:    cfg.Drop,
		buf:     newBuffer(a.Queue.Isolation, a.Queue.QuantumBytes),
		alloc:   newAllocator(a.Alloc),
		aqm:     newAQM(a.AQM, a.Queue.LimitPackets),
		drift:   newDrifter(a, p.Reconfig.RTTSteps, cfg.SlotSeed),
		sched:   NewSchedule(p, cfg.Epoch),
		spikes:  p.Reconfig.Spikes,
		slotOWD: cfg.SlotOWD,
	}
	if l.keyed {
		l.key = cfg.Rand.Uint64() // after the slot seeds: the slots stay those of the seed
	}
	l.slot = l.drift.first()
	l.nextBoundary = l.sched.Next(0)
	l.outageFrom = l.sched.SlotStart(0) // the run starts mid-slot: no outage
	l.applySlotOWD(l.outageFrom)
	l.outageEnd = l.outageFrom
	return l, nil
}

// Schedule returns the link's reconfiguration schedule.
func (l *Link) Schedule() Schedule { return l.sched }

// Enqueue offers p to the link at now.
func (l *Link) Enqueue(now time.Duration, p *packet.Packet) {
	l.advance(now)
	if l.pop != nil {
		if !l.pop.offer(now, p) {
			l.drop(now, p, link.DropPolicer)
		}
		return
	}
	l.admit(now, p)
}

// admit is p's arrival at the access queue.
func (l *Link) admit(now time.Duration, p *packet.Packet) {
	l.arrivedBytes += p.Size
	pos := l.arrivals
	l.arrivals++
	if o := &l.dir.Outage; (o.DropArrivals || o.ArrivalLoss > 0) && !l.slot.clean && now >= l.outageFrom && now < l.outageEnd &&
		(o.DropArrivals || l.draw(procOutage, pos) < o.ArrivalLoss) {
		l.drop(now, p, link.DropOutage)
		return
	}
	q := float64(l.buf.Len())
	switch {
	case l.dir.AQM.PerFlow && l.dir.AQM.Sojourn:
		q = l.flowSojournPackets(now, p.Flow)
	case l.dir.AQM.PerFlow:
		q = float64(l.buf.flowLen(p.Flow))
	case l.dir.AQM.Sojourn:
		q = l.sojournPackets(now)
	}
	if pr := l.aqm.prob(l.aqm.queue(now, q)); pr > 0 && l.draw(procAQM, pos) < pr {
		l.drop(now, p, link.DropAQM)
		return
	}
	p.EnqueuedAt = now
	l.buf.push(p)
	if l.buf.Len() > l.dir.Queue.LimitPackets {
		l.drop(now, l.buf.dropOldest(), link.DropHead)
	}
}

// sojournPackets is the AQM's queue with aqm.sojourn: the waiting time at
// now of the oldest packet in the buffer, in packets served at the current
// allocation with the buffer's mean packet size. With one flow (or one
// FIFO) it is about the packet count; with per-flow DRR the oldest packet
// is the most backlogged flow's, which is served at its share of the rate,
// so the estimate is that flow's wait times the whole rate.
func (l *Link) sojournPackets(now time.Duration) float64 {
	at, ok := l.buf.oldest()
	if !ok {
		return 0
	}
	meanSize := float64(l.buf.Bytes()) / float64(l.buf.Len())
	return (now - at).Seconds() * l.alloc.rate / 8 / meanSize
}

// flowSojournPackets is the per-flow AQM's queue with aqm.sojourn: the
// waiting time at now of the head packet of flow f's own queue, in packets
// served at the whole current allocation with the buffer's mean packet
// size. With one flow it is about its packet count; with n backlogged
// flows under DRR each is served at about 1/n of the allocation, so the
// same per-flow count reads as n times as many packets (each flow is
// judged by its own delay, as fq_codel judges each flow's sojourn, RFC
// 8290 §4).
//
// The time the head spent in the last reconfiguration outage is not
// counted: CoDel drops only once the sojourn has stayed above target for
// a whole interval (100 ms, RFC 8289 §4.3), which a 68 ms outage does not
// reach, and the outage's own loss is outage.arrival_loss (fitted without
// this estimate). Counting it dropped ~27 % of every flow's arrivals
// after each boundary and cost the loss-based CCAs of the concurrent
// uplink their share (calibrate/fits/README.md, issue 17).
func (l *Link) flowSojournPackets(now time.Duration, f packet.FlowID) float64 {
	h := l.buf.flowHead(f)
	if h == nil {
		return 0
	}
	w := now - h.EnqueuedAt
	if o := min(now, l.outageEnd) - max(h.EnqueuedAt, l.outageFrom); o > 0 {
		w -= o
	}
	meanSize := float64(l.buf.Bytes()) / float64(l.buf.Len())
	return w.Seconds() * l.alloc.rate / 8 / meanSize
}

// Dequeue releases a packet whose one-way delay has elapsed by now.
func (l *Link) Dequeue(now time.Duration) *packet.Packet {
	l.advance(now)
	return l.out.pop(now)
}

// NextEvent is the earliest release, PoP hand-over or (while packets wait)
// frame.
func (l *Link) NextEvent() time.Duration {
	t := l.out.next()
	if l.pop != nil {
		t = min(t, l.pop.q.next())
	}
	if l.buf.Len() > 0 {
		t = min(t, l.frameTime(l.frameIdx))
	}
	return t
}

// Snapshot reports the packets waiting (PoP and access queue) and the
// current allocation.
func (l *Link) Snapshot(now time.Duration) link.Snapshot {
	l.advance(now)
	s := link.Snapshot{QueuePackets: l.buf.Len(), QueueBytes: l.buf.Bytes(), RateBps: l.alloc.rate}
	if l.pop != nil {
		s.QueuePackets += l.pop.q.Len()
		s.QueueBytes += l.pop.q.q.Bytes()
	}
	return s
}

// Allocation returns the current allocation in bits/s.
func (l *Link) Allocation(now time.Duration) float64 {
	l.advance(now)
	return l.alloc.rate
}

func (l *Link) frameTime(k int64) time.Duration { return time.Duration(k) * l.frame }

// advance runs every reconfiguration, frame and PoP hand-over up to now, in
// time order (at equal times in that order). A frame at the same instant as
// an arrival runs first, whichever of Enqueue and Dequeue the engine calls
// first.
func (l *Link) advance(now time.Duration) {
	for {
		tf := l.frameTime(l.frameIdx)
		tp := never
		if l.pop != nil {
			tp = l.pop.q.next()
		}
		if l.nextBoundary <= min(now, tf, tp) {
			l.reconfigure(l.nextBoundary)
			continue
		}
		if tf > now && tp > now {
			return
		}
		if tf <= tp {
			l.runFrame(tf)
			l.frameIdx++
			continue
		}
		l.admit(tp, l.pop.q.pop(tp))
	}
}
