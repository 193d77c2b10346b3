package transport

import (
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
)

// This file holds the test fixtures shared by the package's tests: a fixed
// window / fixed rate controller and a one-bottleneck path driven by sim.Loop.

// fixedCC is a trivial controller: constant cwnd and pacing rate. It records
// what the transport told it.
type fixedCC struct {
	cwnd     int
	rate     float64
	sends    int
	retrans  int
	rtos     []time.Duration
	episodes []time.Duration
	samples  []cc.RateSample // copies of samples with a delivery rate
	keep     bool            // record samples
	lastRS   cc.RateSample
	exits    int // ACKs that left recovery (InRecovery true, then false)
}

func (c *fixedCC) OnSend(now time.Duration, s cc.SentInfo) {
	c.sends++
	if s.Retrans {
		c.retrans++
	}
}

func (c *fixedCC) OnAck(now time.Duration, rs *cc.RateSample) {
	if rs.NewLossEpisode {
		c.episodes = append(c.episodes, now)
	}
	if c.keep && rs.DeliveryRate > 0 {
		c.samples = append(c.samples, *rs)
	}
	if c.lastRS.InRecovery && !rs.InRecovery {
		c.exits++
	}
	c.lastRS = *rs
}

func (c *fixedCC) OnRTO(now time.Duration) { c.rtos = append(c.rtos, now) }
func (c *fixedCC) CWnd() int               { return c.cwnd }
func (c *fixedCC) PacingRate() float64     { return c.rate }

var _ cc.Controller = (*fixedCC)(nil)

// Event kinds carried in the low bits of a loop event's arg.
const (
	evData = iota // a data segment reaches the receiver
	evAck         // an ACK reaches the sender
	evSnd         // sender wake
	evRcv         // receiver wake
	evBits = 2
)

// path is a sender and a receiver joined by a FIFO bottleneck of a fixed rate
// (wire bytes/s; 0 = infinite) with unlimited buffer, a fixed one-way delay
// each way, and optional drop and jitter hooks.
type path struct {
	t        testing.TB
	loop     *sim.Loop
	pool     *packet.Pool
	snd      *Sender
	rcv      *Receiver
	ctrl     *fixedCC
	rate     float64
	fwd, rev time.Duration
	linkFree time.Duration

	dropData func(now time.Duration, p *packet.Packet) bool
	dropAck  func(now time.Duration, p *packet.Packet) bool
	jitter   func() time.Duration
	check    bool // verify sender invariants after every event

	slots []*packet.Packet
	free  []int

	sndTimer, rcvTimer sim.Timer
	sndAt, rcvAt       time.Duration
	doneAt             time.Duration
}

func newPath(t testing.TB, scfg SenderConfig, ctrl *fixedCC, rate float64, fwd, rev time.Duration) *path {
	pool := &packet.Pool{}
	p := &path{
		t: t, loop: sim.NewLoop(), pool: pool, ctrl: ctrl, rate: rate, fwd: fwd, rev: rev,
		snd: NewSender(scfg, ctrl, pool),
		// The sender's tests assume the receiver's window never binds: a
		// static 16 MiB window (rcvwnd_test.go tests autotuning).
		rcv:   NewReceiver(ReceiverConfig{Flow: scfg.Flow, NoAutoTune: true}, pool),
		sndAt: sim.Never, rcvAt: sim.Never, doneAt: sim.Never,
	}
	p.loop.Schedule(0, p, evSnd)
	p.sndAt = 0
	return p
}

func (p *path) park(pk *packet.Packet) int {
	if n := len(p.free); n > 0 {
		i := p.free[n-1]
		p.free = p.free[:n-1]
		p.slots[i] = pk
		return i
	}
	p.slots = append(p.slots, pk)
	return len(p.slots) - 1
}

func (p *path) unpark(i int) *packet.Packet {
	pk := p.slots[i]
	p.slots[i] = nil
	p.free = append(p.free, i)
	return pk
}

// Fire implements sim.Handler.
func (p *path) Fire(now time.Duration, arg int) {
	switch arg & (1<<evBits - 1) {
	case evData:
		pk := p.unpark(arg >> evBits)
		p.rcv.OnData(now, pk)
		p.pool.Put(pk)
		p.pumpReceiver(now)
	case evAck:
		pk := p.unpark(arg >> evBits)
		p.snd.OnAck(now, pk)
		p.pool.Put(pk)
		p.pumpSender(now)
	case evSnd:
		p.sndAt = sim.Never
		p.pumpSender(now)
	case evRcv:
		p.rcvAt = sim.Never
		p.pumpReceiver(now)
	}
	if p.check {
		if err := p.snd.checkInvariants(); err != nil {
			p.t.Fatalf("t=%v: %v", now, err)
		}
	}
	if p.doneAt == sim.Never && p.snd.Stats().Done {
		p.doneAt = now
	}
}

func (p *path) pumpSender(now time.Duration) {
	for pk := p.snd.Next(now); pk != nil; pk = p.snd.Next(now) {
		if p.dropData != nil && p.dropData(now, pk) {
			p.pool.Put(pk)
			continue
		}
		dep := max(now, p.linkFree)
		if p.rate > 0 {
			dep += time.Duration(float64(pk.Size) / p.rate * float64(time.Second))
		}
		p.linkFree = dep
		at := dep + p.fwd
		if p.jitter != nil {
			at += p.jitter()
		}
		p.loop.Schedule(at, p, p.park(pk)<<evBits|evData)
	}
	p.sndTimer, p.sndAt = p.rearm(now, p.snd.NextWake(), p.sndTimer, p.sndAt, evSnd)
}

func (p *path) pumpReceiver(now time.Duration) {
	for pk := p.rcv.Next(now); pk != nil; pk = p.rcv.Next(now) {
		if p.dropAck != nil && p.dropAck(now, pk) {
			p.pool.Put(pk)
			continue
		}
		p.loop.Schedule(now+p.rev, p, p.park(pk)<<evBits|evAck)
	}
	p.rcvTimer, p.rcvAt = p.rearm(now, p.rcv.NextWake(), p.rcvTimer, p.rcvAt, evRcv)
}

func (p *path) rearm(now, w time.Duration, tm sim.Timer, at time.Duration, kind int) (sim.Timer, time.Duration) {
	if w == at {
		return tm, at
	}
	if w <= now {
		p.t.Fatalf("t=%v: wake %v not in the future after pumping (kind %d)", now, w, kind)
	}
	p.loop.Cancel(tm)
	if w == sim.Never {
		return sim.Timer{}, sim.Never
	}
	return p.loop.Schedule(w, p, kind), w
}

// run advances the simulation to end.
func (p *path) run(end time.Duration) { p.loop.RunUntil(end) }

// seqDropper drops the first transmission of the segments starting at the
// given sequence numbers.
func seqDropper(seqs ...uint64) func(time.Duration, *packet.Packet) bool {
	set := map[uint64]bool{}
	for _, s := range seqs {
		set[s] = true
	}
	return func(_ time.Duration, p *packet.Packet) bool { return !p.Retrans && set[p.Seq] }
}

// segSeqs returns the starting sequence numbers of segments first,
// first+step, ... below end.
func segSeqs(first, end, step uint64) []uint64 {
	var out []uint64
	for k := first; k < end; k += step {
		out = append(out, k*mss)
	}
	return out
}

// runDrops transfers 1000 segments over a path at rate with a 10 ms
// one-way delay each way, dropping the first transmission of the segments
// at drops, checking the sender's invariants after every event.
func runDrops(t *testing.T, ctrl *fixedCC, rate float64, drops []uint64) *path {
	t.Helper()
	p := newPath(t, SenderConfig{Bytes: 1000 * mss}, ctrl, rate, 10*time.Millisecond, 10*time.Millisecond)
	p.dropData = seqDropper(drops...)
	p.check = true
	p.run(10 * time.Second)
	return p
}

// mbps converts megabits per second to bytes per second.
func mbps(m float64) float64 { return m * 1e6 / 8 }
