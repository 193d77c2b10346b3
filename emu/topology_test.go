package emu

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/internal/livetest"
	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/packet"
)

// seriesTopology: two links in series that every flow crosses.
const seriesTopology = `version: 1
name: series
duration: DUR
links:
  - {name: a, from: x, to: y, rate: 20Mbps, rtt: 10ms, queue: {limit_packets: 100}}
  - {name: b, from: y, to: z, rate: 10Mbps, rtt: 20ms, queue: {limit_packets: 100}}
flows: [{cca: FLOW, path: [a, b]}]
`

func replace(s, old, repl string) string { return strings.Replace(s, old, repl, 1) }

func seriesYAML(dur, flow string) string {
	return strings.NewReplacer("DUR", dur, "FLOW", flow).Replace(seriesTopology)
}

// A topology whose flows cross different links is refused; one whose flows
// share their links runs as those links in series: a packet's release is
// each hop's serialisation and propagation in turn.
func TestFromSpecTopology(t *testing.T) {
	lot, err := parse(t, `version: 1
name: lot
duration: 5s
links:
  - {name: a, from: x, to: y, rate: 20Mbps, rtt: 10ms}
  - {name: b, from: y, to: z, rate: 10Mbps, rtt: 20ms}
flows: [{cca: cubic, path: [a, b]}, {cca: cubic, path: [b]}]
`).Spec()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromSpec(lot, SpecOptions{}); !errors.Is(err, errTopology) {
		t.Fatalf("parking lot: got %v, want errTopology", err)
	}
	mixed, err := parse(t, replace(seriesYAML("5s", "cubic"), "flows: [", "flows: [{cca: cbr, rate: 1Mbps, packet_size: 100, path: [a, b]}, ")).Spec()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromSpec(mixed, SpecOptions{}); err != nil {
		t.Errorf("a probe and a TCP flow on the same links: %v", err)
	}
	sc := parse(t, seriesYAML("5s", "cubic"))
	_, rc := liveConfig(t, sc, false)
	var drops int
	st, err := rc.Downlink(func(time.Duration, *packet.Packet, link.DropCause) { drops++ })
	if err != nil {
		t.Fatal(err)
	}
	p := &packet.Packet{Size: 1500, Kind: packet.Data}
	st.Enqueue(0, p)
	var at time.Duration
	for at = st.NextEvent(); ; at = st.NextEvent() {
		if q := st.Dequeue(at); q != nil {
			break
		}
	}
	// 1500 B at 20 Mbit/s (600 µs) + 5 ms, then at 10 Mbit/s (1.2 ms) + 10 ms
	if want := 600*time.Microsecond + 5*time.Millisecond + 1200*time.Microsecond + 10*time.Millisecond; at != want || drops != 0 {
		t.Errorf("released at %v (drops %d), want %v", at, drops, want)
	}
	if sc.SharedPath() != nil {
		t.Errorf("series: SharedPath %v", sc.SharedPath())
	}
}

// Links in series run live: kernel CUBIC over 20 Mbit/s then 10 Mbit/s
// (30 ms of round trip) gets the second link's rate, as its simulated twin
// does: goodput within 6 % of the twin's (the kernel-vs-model tolerance of
// the single-link comparisons) and a minimum RTT within 2 ms of 30 ms plus
// serialisation.
func TestLiveTopologySeries(t *testing.T) {
	needEmu(t)
	sc := parse(t, seriesYAML("10s", "cubic"))
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
		got, want := res.Flows[0].ThroughputMbps, twin.Flows[0].ThroughputMbps
		t.Logf("run %d: live %.2f Mbit/s min RTT %.2f ms; sim %.2f Mbit/s min RTT %.2f ms", a.N, got, res.Flows[0].MinRTTMs, want, twin.Flows[0].MinRTTMs)
		if got < 0.94*want || got > 1.06*want {
			a.Errorf("live goodput %.2f Mbit/s, sim %.2f: want within 6 %%", got, want)
		}
		if m := res.Flows[0].MinRTTMs; m < 30 || m > 32+1.8 {
			a.Errorf("live min RTT %.2f ms, want 30 ms + serialisation (1.8 ms) within 2 ms", m)
		}
	})
}
