package scenario_test

import (
	"testing"
	"time"

	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
)

// moveScenario is seed 002 Fig. 8's two paths (20 ms and 50 ms base RTT)
// with probes instead of TCP: every packet's fate is recorded.
const moveScenario = `version: 1
name: moves
duration: 300s
links:
  - {name: short, from: client, to: gw, rate: 1Gbps, rtt: 10ms}
  - {name: long, from: client, to: gw, rate: 1Gbps, rtt: 40ms}
  - {name: bottleneck, from: gw, to: server, rate: 50Mbps, rtt: 10ms, queue: {limit_packets: 209}}
flows:
  - {cca: cbr, rate: 2Mbps, packet_size: 1000, record: true, count: 2, path: [short, bottleneck]}
  - cca: cbr
    rate: 2Mbps
    packet_size: 1000
    record: true
    count: 2
    path: [long, bottleneck]
    moves: [{at: 100s, path: [short, bottleneck]}, {at: 200s, path: [long, bottleneck]}]
`

func runYAML(t *testing.T, src string) *result.Result {
	t.Helper()
	_, spec := loadSpec(t, writeScenario(t, src))
	res, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Issue 19 acceptance 3: moving flows between the 20 ms and the 50 ms path
// at 100 s and back at 200 s loses no packet, and every packet takes the
// path it was sent on: its one-way delay is that path's propagation (5 +
// 5 ms short, 20 + 5 ms long) plus serialisation (8 µs at 1 Gbit/s, 160 µs
// at 50 Mbit/s) and at most three other probes' serialisation ahead of it
// (4 × 2 Mbit/s of probes cannot queue more). The only reordering is what
// those delays imply: packets sent in the last 15 ms before the move to
// the shorter path arrive after the first ones sent on it.
func TestMoveLosesNothing(t *testing.T) {
	res := runYAML(t, moveScenario)
	for _, l := range res.Links {
		if d := l.Drops; d != (result.Drops{}) {
			t.Errorf("link %s dropped %+v", l.Name, d)
		}
	}
	const slack = 4*160*time.Microsecond + 8*time.Microsecond
	oneWay := func(moved bool, sent float64) time.Duration {
		if moved && (sent < 100 || sent >= 200) {
			return 25 * time.Millisecond
		}
		return 10 * time.Millisecond
	}
	for _, f := range res.Flows {
		moved := f.ID >= 2
		var delivered, reordered, implied int
		lastArrival, lastIdeal := -1.0, -1.0
		for _, p := range f.Packets {
			if p.SentS > res.DurationS-0.05 {
				break // may still be in flight at the end
			}
			if p.OWDMs <= 0 {
				t.Fatalf("flow %d: packet %d sent at %.6f s was lost (owd %v)", f.ID, p.Seq, p.SentS, p.OWDMs)
			}
			delivered++
			d := oneWay(moved, p.SentS)
			owd := time.Duration(p.OWDMs * float64(time.Millisecond))
			if owd < d || owd > d+slack {
				t.Errorf("flow %d: packet sent at %.6f s took %v, want [%v, %v] (the path it was sent on)", f.ID, p.SentS, owd, d, d+slack)
			}
			arrival, ideal := p.SentS+p.OWDMs/1e3, p.SentS+d.Seconds()
			if arrival < lastArrival {
				reordered++
			}
			if ideal < lastIdeal {
				implied++
			}
			lastArrival, lastIdeal = max(lastArrival, arrival), max(lastIdeal, ideal)
		}
		if int64(delivered) > f.SentPackets || delivered < 70000 {
			t.Errorf("flow %d: %d delivered of %d sent", f.ID, delivered, f.SentPackets)
		}
		if reordered != implied || (moved && implied == 0) || (!moved && implied != 0) {
			t.Errorf("flow %d: %d packets overtaken, the paths' delays imply %d", f.ID, reordered, implied)
		}
		t.Logf("flow %d: %d packets sent, %d lost, %d overtaken (implied by the delays: %d)", f.ID, f.SentPackets, f.LostPackets, reordered, implied)
	}
}

// Seed 002 Fig. 8 with CUBIC: moves drop nothing on the paths (only the
// shared bottleneck's queue drops, by overflow), and the moved flows'
// RTT follows their path: 30 ms above the others' on the 50 ms path, the
// same on the 20 ms path.
func TestPathReconfigurationCubic(t *testing.T) {
	_, spec := loadSpec(t, "../examples/seed002/fig8-path-reconfiguration.yaml")
	res, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range res.Links {
		d := l.Drops
		if l.Hop != "bottleneck" && d != (result.Drops{}) || d.Head+d.AQM+d.Random+d.Outage+d.Policer != 0 {
			t.Errorf("link %s dropped %+v; only the bottleneck's queue may drop (tail)", l.Name, d)
		}
	}
	srtt := func(f result.Flow, from, to float64) float64 {
		var sum float64
		var n int
		for _, iv := range f.Intervals {
			if iv.T > from && iv.T <= to {
				sum += iv.SRTTMs
				n++
			}
		}
		return sum / float64(n)
	}
	for _, ph := range []struct {
		from, to, gap float64 // gap: the moved flows' extra base RTT, ms
	}{{10, 100, 30}, {110, 200, 0}, {210, 300, 30}} {
		short := (srtt(res.Flows[0], ph.from, ph.to) + srtt(res.Flows[1], ph.from, ph.to)) / 2
		moved := (srtt(res.Flows[2], ph.from, ph.to) + srtt(res.Flows[3], ph.from, ph.to)) / 2
		var tput [4]float64
		for i := range tput {
			tput[i] = goodputMbps(res.Flows[i], ph.from, ph.to)
		}
		t.Logf("(%g, %g] s: srtt %.1f ms (20 ms path) vs %.1f ms (moved flows); goodput %.2f %.2f %.2f %.2f Mbit/s, Jain %.3f",
			ph.from, ph.to, short, moved, tput[0], tput[1], tput[2], tput[3], jain(tput[:]))
		if d := moved - short; d < ph.gap-5 || d > ph.gap+5 {
			t.Errorf("(%g, %g] s: moved flows' srtt %.1f ms, the others' %.1f: want %g ms apart within 5 ms", ph.from, ph.to, moved, short, ph.gap)
		}
	}
}

func jain(x []float64) float64 {
	var sum, sq float64
	for _, v := range x {
		sum += v
		sq += v * v
	}
	return sum * sum / (float64(len(x)) * sq)
}
