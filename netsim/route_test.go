package netsim

import (
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// hop is a link of rate and one-way delay with a drop-tail queue.
func hop(name string, rate float64, delay time.Duration, limit int) LinkSpec {
	return LinkSpec{Name: name, Build: func(drop link.DropFunc) (link.Stage, error) {
		b, err := link.NewBottleneck(rate, link.QueueLimit{Packets: limit}, drop)
		if err != nil {
			return nil, err
		}
		d, _ := link.NewDelay(delay)
		return link.NewChain(b, d), nil
	}}
}

func TestRouteValidate(t *testing.T) {
	hops := []LinkSpec{hop("a", 1e8, time.Millisecond, 0), hop("b", 1e8, time.Millisecond, 0)}
	base := func(f FlowSpec) Spec {
		return Spec{Name: "r", Seed: 1, Duration: 10 * time.Second, Interval: time.Second, Hops: hops, Flows: []FlowSpec{f}}
	}
	for _, c := range []struct {
		name string
		f    FlowSpec
		want string
	}{
		{"no ack route", FlowSpec{CCA: "test-fixed-window", Route: Route{Data: []int{0}}}, "ack hops"},
		{"unknown hop", FlowSpec{CCA: "test-fixed-window", Route: Route{Data: []int{0, 2}, Ack: []int{1}}}, "hop 2 not in [0, 2)"},
		{"hop twice", FlowSpec{CCA: "test-fixed-window", Route: Route{Data: []int{0, 0}, Ack: []int{1}}}, "hop 0 crossed twice"},
		{"moves out of order", FlowSpec{CCA: "test-fixed-window", Route: Route{Data: []int{0}, Ack: []int{1}},
			Moves: []Move{{At: 5 * time.Second, Route: Route{Data: []int{0}, Ack: []int{1}}}, {At: 4 * time.Second, Route: Route{Data: []int{0}, Ack: []int{1}}}}}, "moves[1].at 4s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base(c.f)
			if err := s.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
	s := Spec{Name: "r", Seed: 1, Duration: time.Second, Interval: time.Second,
		Forward: hops[0], Reverse: hops[1], Flows: []FlowSpec{{CCA: "test-fixed-window", Route: Route{Data: []int{0}}}}}
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "a route needs hops") {
		t.Fatalf("route without hops: %v", err)
	}
}

// A window-limited flow moved from a 50 ms to a 20 ms route and back loses
// nothing (no queue overflows at these rates), and its throughput follows
// the route's RTT: W·MSS/RTT.
func TestMovedWindowFollowsRTT(t *testing.T) {
	hops := []LinkSpec{
		hop("long", 1e9, 25*time.Millisecond, 0), hop("short", 1e9, 10*time.Millisecond, 0),
		hop("long-back", 1e9, 25*time.Millisecond, 0), hop("short-back", 1e9, 10*time.Millisecond, 0),
	}
	long, short := Route{Data: []int{0}, Ack: []int{2}}, Route{Data: []int{1}, Ack: []int{3}}
	spec := Spec{Name: "m", Seed: 1, Duration: 30 * time.Second, Interval: time.Second, Hops: hops,
		Flows: []FlowSpec{{CCA: "test-fixed-window", Params: map[string]float64{"packets": 20}, Route: long,
			Moves: []Move{{At: 10 * time.Second, Route: short}, {At: 20 * time.Second, Route: long}}}}}
	res, err := Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range res.Links {
		if l.Drops.Tail != 0 {
			t.Errorf("link %s dropped %d", l.Name, l.Drops.Tail)
		}
	}
	rate := func(from, to float64) float64 {
		var b int64
		for _, iv := range res.Flows[0].Intervals {
			if iv.T > from && iv.T <= to {
				b += iv.Bytes
			}
		}
		return float64(b) * 8 / (to - from)
	}
	// 20 × 1448 B per RTT (the 1500-byte packets' serialisation at 1 Gbit/s
	// adds 12 µs each way, under 0.1 %).
	for _, c := range []struct {
		from, to float64
		rtt      time.Duration
	}{{1, 10, 50 * time.Millisecond}, {11, 20, 20 * time.Millisecond}, {21, 30, 50 * time.Millisecond}} {
		want := 20 * float64(packet.MSS) * 8 / c.rtt.Seconds()
		if got := rate(c.from, c.to); got < 0.98*want || got > 1.001*want {
			t.Errorf("(%g, %g] s: %.3f Mbit/s, want %.3f (20 packets per %v)", c.from, c.to, got/1e6, want/1e6, c.rtt)
		}
	}
	t.Logf("retransmits %d, drops 0", res.Flows[0].Retransmits)
}

// BenchmarkRoute3Hops moves one probe packet over a three-hop route (and
// nothing else): the per-packet routing is allocation-free.
func BenchmarkRoute3Hops(b *testing.B) {
	hops := []LinkSpec{hop("a", 1e10, time.Microsecond, 0), hop("b", 1e10, time.Microsecond, 0), hop("c", 1e10, time.Microsecond, 0)}
	spec := Spec{Name: "b", Seed: 1, Duration: time.Hour, Interval: time.Hour, Hops: hops,
		Flows: []FlowSpec{{Kind: CBR, RateBps: 1e3, PacketSize: 100, Start: time.Hour - 1, Route: Route{Data: []int{0, 1, 2}}}}}
	if err := spec.Validate(); err != nil {
		b.Fatal(err)
	}
	n, err := newNet(&spec)
	if err != nil {
		b.Fatal(err)
	}
	send := func() {
		p := n.pool.Get()
		p.Kind, p.Size, p.SentAt = packet.Probe, 100, n.loop.Now()
		n.send(n.loop.Now(), p, n.flows[0].route.data)
		n.loop.RunUntil(n.loop.Now() + time.Millisecond)
	}
	send() // the delay histogram's buckets
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		send()
	}
	if n.flows[0].cbrRecv != int64(b.N)+1 {
		b.Fatalf("%d delivered of %d", n.flows[0].cbrRecv, b.N+1)
	}
}
