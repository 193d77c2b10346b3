package emu

import (
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/internal/livetest"
	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/packet"
)

// hopsTopology: data crosses a (20 Mbit/s, 10 ms) then b (10 Mbit/s,
// 20 ms, a 2-packet queue); alt is a link no flow crosses.
const hopsTopology = `version: 1
name: hops
duration: 5s
links:
  - {name: a, from: x, to: y, rate: 20Mbps, rtt: 10ms}
  - {name: alt, from: x, to: y, rate: 20Mbps, rtt: 30ms}
  - {name: b, from: y, to: z, rate: 10Mbps, rtt: 20ms, queue: {limit_packets: 2}}
flows: [{cca: cubic, path: [a, b]}]
`

// A live topology's series meters each hop: a burst of 10 1500-byte
// packets crosses a whole (15000 bytes delivered), leaving it one every
// 600 µs (20 Mbit/s); b serves one per 1.2 ms behind a 2-packet queue, so
// its backlog grows by one packet per 1.2 ms: arrivals 6, 8 and 10 (at
// 3.0, 4.2 and 5.4 ms after the first) find two waiting and are
// tail-dropped, and b delivers 7 (10500 bytes). The result lists every
// hop direction, alt's with zeros, in the simulator's order and names.
func TestTopologyHopMeters(t *testing.T) {
	sc := parse(t, hopsTopology)
	spec, rc := liveConfig(t, sc, false)
	fwd, err := rc.Downlink(func(time.Duration, *packet.Packet, link.DropCause) {})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := rc.Uplink(func(time.Duration, *packet.Packet, link.DropCause) {})
	if err != nil {
		t.Fatal(err)
	}
	ways := []way{{stage: fwd, hops: hopMeters(fwd)}, {stage: rev, hops: hopMeters(rev)}}
	if len(ways[0].hops) != 4 || len(ways[1].hops) != 2 {
		t.Fatalf("%d forward and %d reverse meters, want 4 (a, b, uncrossed alt both ways) and 2", len(ways[0].hops), len(ways[1].hops))
	}
	for range 10 {
		fwd.Enqueue(0, &packet.Packet{Size: 1500, Kind: packet.Data})
	}
	out := 0
	for at := fwd.NextEvent(); at != link.Never; at = fwd.NextEvent() {
		for fwd.Dequeue(at) != nil {
			out++
		}
	}
	for _, m := range slices.Concat(ways[0].hops, ways[1].hops) {
		m.sample(time.Second, 1)
	}
	got := hopLinks(ways)
	twin, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(twin.Links) {
		t.Fatalf("%d links, sim has %d", len(got), len(twin.Links))
	}
	for i, l := range got {
		s := twin.Links[i]
		if l.Name != s.Name || l.Hop != s.Hop || l.Direction != s.Direction {
			t.Errorf("link %d: %s (%s %s), sim %s (%s %s)", i, l.Name, l.Hop, l.Direction, s.Name, s.Hop, s.Direction)
		}
	}
	byName := map[string]int{}
	for i, l := range got {
		byName[l.Name] = i
	}
	a, b, alt := got[byName["a.forward"]], got[byName["b.forward"]], got[byName["alt.forward"]]
	if out != 7 || a.Delivered != 15000 || b.Delivered != 10500 || b.Drops.Tail != 3 || a.Drops.Tail != 0 {
		t.Errorf("released %d; a delivered %d (drops %+v), b %d (drops %+v); want 7, 15000 (none), 10500 (3 tail)", out, a.Delivered, a.Drops, b.Delivered, b.Drops)
	}
	if len(b.Intervals) != 1 || b.Intervals[0].DeliveredBytes != 10500 || b.Intervals[0].Drops.Tail != 3 || b.Intervals[0].AllocMbps != 10 {
		t.Errorf("b's sample %+v, want 10500 bytes, 3 tail drops, 10 Mbit/s", b.Intervals)
	}
	if alt.Delivered != 0 || len(alt.Intervals) != 1 || alt.Intervals[0].DeliveredBytes != 0 {
		t.Errorf("uncrossed alt: %+v", alt)
	}
	// A path (no topology) keeps its two links.
	_, prc := liveConfig(t, parse(t, "version: 1\nname: p\nduration: 5s\npath: {profile: fixed, rate: 10Mbps, rtt: 20ms}\nflows: [{cca: cubic}]\n"), false)
	pst, err := prc.Downlink(func(time.Duration, *packet.Packet, link.DropCause) {})
	if err != nil {
		t.Fatal(err)
	}
	if hopMeters(pst) != nil {
		t.Error("a path's link has hop meters")
	}
}

// The meters add nothing to the hot path's allocations: a packet through
// the metered two-hop series allocates nothing.
func TestTopologyHopMetersAllocFree(t *testing.T) {
	_, rc := liveConfig(t, parse(t, hopsTopology), false)
	fwd, err := rc.Downlink(func(time.Duration, *packet.Packet, link.DropCause) {})
	if err != nil {
		t.Fatal(err)
	}
	p := &packet.Packet{Size: 1500, Kind: packet.Data}
	now := time.Duration(0)
	fwd.Enqueue(now, p) // warm up
	for q := fwd.Dequeue(fwd.NextEvent()); q == nil; q = fwd.Dequeue(fwd.NextEvent()) {
	}
	allocs := testing.AllocsPerRun(100, func() {
		now += time.Second
		fwd.Enqueue(now, p)
		for fwd.Dequeue(fwd.NextEvent()) == nil {
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per packet through the metered series", allocs)
	}
}

func BenchmarkTopologyHopSeries(b *testing.B) {
	_, rc := liveConfig(b, parse(b, hopsTopology), false)
	fwd, err := rc.Downlink(func(time.Duration, *packet.Packet, link.DropCause) {})
	if err != nil {
		b.Fatal(err)
	}
	p := &packet.Packet{Size: 1500, Kind: packet.Data}
	now := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		now += time.Second
		fwd.Enqueue(now, p)
		for fwd.Dequeue(fwd.NextEvent()) == nil {
		}
	}
}

// Live, the result of a series topology has sim's links: one per hop
// direction with the same names in the same order, and each data hop
// delivers what the flow moved (a's bytes within 1 % of b's: b drops
// some of what a delivered, a retransmission at most).
func TestLiveTopologyHopLinks(t *testing.T) {
	needEmu(t)
	sc := parse(t, replace(hopsTopology, "queue: {limit_packets: 2}", "queue: {limit_packets: 100}"))
	spec, err := sc.Spec()
	if err != nil {
		t.Fatal(err)
	}
	twin, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	livetest.Repeat(t, func(a *livetest.Attempt) {
		_, rc := liveConfig(t, sc, false)
		res := live(t, rc)
		a.Stall("pump gap max", time.Duration(res.Instrument["pump_gap_max_us"])*time.Microsecond, 5*time.Millisecond)
		if len(res.Links) != len(twin.Links) {
			t.Fatalf("%d links live, %d in sim", len(res.Links), len(twin.Links))
		}
		for i, l := range res.Links {
			if l.Name != twin.Links[i].Name || len(l.Intervals) < 4 {
				a.Errorf("link %d: %s with %d samples, sim %s", i, l.Name, len(l.Intervals), twin.Links[i].Name)
			}
		}
		ad, bd := float64(res.Links[0].Delivered), float64(res.Links[2].Delivered)
		t.Logf("run %d: a.forward %.0f B, b.forward %.0f B (drops %+v), alt %d B; flow %.2f Mbit/s", a.N, ad, bd, res.Links[2].Drops, res.Links[1].Delivered, res.Flows[0].ThroughputMbps)
		if bd < 1e6 || ad < bd || ad > 1.01*bd+float64(res.Links[2].Drops.Tail)*1500 || res.Links[1].Delivered != 0 {
			a.Errorf("a.forward %.0f B, b.forward %.0f B, alt %d B: want a ≈ b (+ b's drops), > 1 MB, alt 0", ad, bd, res.Links[1].Delivered)
		}
	})
}
