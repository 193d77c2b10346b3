package qdisc

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// source is a synthetic sender in the test harness.
type source struct {
	flow  packet.FlowID
	size  int
	ect   bool
	every time.Duration // CBR spacing; 0 for a window-based (AIMD) source
	until time.Duration // CBR: stop sending at (0: never)
	// AIMD: a Reno-like window of packets over a fixed base RTT; one
	// halving per RTT on a drop or CE mark.
	rtt      time.Duration
	cwnd     float64
	inflight int
	lastCut  time.Duration

	next      time.Duration // next CBR send
	delivered int64         // bytes
	delays    []time.Duration
	departs   []time.Duration // departure time of each delays entry
}

type ackEv struct {
	at   time.Duration
	src  int
	lost bool
	ce   bool
}

// bench runs sources through q served at rate for d and records per-flow
// deliveries and one-way delays (arrival at the queue to the end of
// serialisation).
type bench struct {
	pool   packet.Pool
	srv    *link.Server
	srcs   []*source
	acks   []ackEv // pending feedback, in time order (fixed RTT keeps order)
	drops  int
	onDrop func(now time.Duration, p *packet.Packet)
	hostOf func(packet.FlowID) uint32 // packet.Host by flow (nil: 0)
}

func (b *bench) drop(now time.Duration, p *packet.Packet, _ link.DropCause) {
	b.drops++
	if b.onDrop != nil {
		b.onDrop(now, p)
	}
	s := b.srcs[p.Flow]
	if s.every == 0 {
		b.acks = append(b.acks, ackEv{at: now + s.rtt, src: int(p.Flow), lost: true})
	}
	b.pool.Put(p)
}

func (b *bench) send(now time.Duration, s *source) {
	p := b.pool.Get()
	p.Flow, p.Size, p.ECT, p.SentAt, p.Kind = s.flow, s.size, s.ect, now, packet.Data
	if b.hostOf != nil {
		p.Host = b.hostOf(p.Flow)
	}
	if s.every == 0 {
		s.inflight++
	}
	b.srv.Enqueue(now, p)
}

func (b *bench) run(d time.Duration) {
	for _, s := range b.srcs {
		if s.every == 0 {
			for s.inflight < int(s.cwnd) {
				b.send(0, s)
			}
		}
	}
	for {
		t := b.srv.NextEvent()
		for _, s := range b.srcs {
			if s.every > 0 && (s.until == 0 || s.next < s.until) {
				t = min(t, s.next)
			}
		}
		if len(b.acks) > 0 {
			t = min(t, b.acks[0].at)
		}
		if t > d {
			return
		}
		for p := b.srv.Dequeue(t); p != nil; p = b.srv.Dequeue(t) {
			s := b.srcs[p.Flow]
			s.delivered += int64(p.Size)
			s.delays = append(s.delays, t-p.SentAt)
			s.departs = append(s.departs, t)
			if s.every == 0 {
				b.acks = append(b.acks, ackEv{at: t + s.rtt, src: int(p.Flow), ce: p.CE})
			}
			b.pool.Put(p)
		}
		for len(b.acks) > 0 && b.acks[0].at <= t {
			a := b.acks[0]
			b.acks = b.acks[1:]
			s := b.srcs[a.src]
			s.inflight--
			if a.lost || a.ce {
				if a.at-s.lastCut > s.rtt {
					s.cwnd, s.lastCut = max(2, s.cwnd/2), a.at
				}
			} else {
				s.cwnd += 1 / s.cwnd
			}
			for s.inflight < int(s.cwnd) {
				b.send(t, s)
			}
		}
		for _, s := range b.srcs {
			if s.every > 0 && s.next <= t && (s.until == 0 || s.next < s.until) {
				b.send(t, s)
				s.next += s.every
			}
		}
	}
}

func cbr(flow int, size int, rateBps float64) *source {
	return &source{flow: packet.FlowID(flow), size: size, every: time.Duration(float64(size*8) / rateBps * 1e9)}
}

func aimd(flow int, rtt time.Duration) *source {
	return &source{flow: packet.FlowID(flow), size: packet.MTU, rtt: rtt, cwnd: 2, lastCut: -time.Hour}
}

func newBench(t interface{ Fatal(...any) }, rate float64, mk func(drop link.DropFunc) link.Queue, srcs ...*source) *bench {
	b := &bench{srcs: srcs}
	srv, err := link.NewServer(rate, mk(b.drop))
	if err != nil {
		t.Fatal(err)
	}
	b.srv = srv
	return b
}

// jain is Jain's fairness index of xs.
func jain(xs []float64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	return s * s / (float64(len(xs)) * s2)
}

func mean(ds []time.Duration) time.Duration {
	var s time.Duration
	for _, d := range ds {
		s += d
	}
	return s / time.Duration(max(1, len(ds)))
}

func maxOf(ds []time.Duration) time.Duration {
	m := time.Duration(math.MinInt64)
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x71646973)) }

// txTime is the serialisation time of size bytes at rate bit/s.
func txTime(size int, rate float64) time.Duration {
	return time.Duration(float64(size*8) / rate * 1e9)
}
