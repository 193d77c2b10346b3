package emu

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/internal/livetest"
	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/scenario"
)

// leoemScenario replays LeoEM's SD→NY path from second 990 (NULL seconds
// at run seconds 7–10; route changes at 1, 2, 3, 11, 16 s...) on the
// seed-002 example's 150 Mbit/s link.
func leoemScenario(tb testing.TB, dur time.Duration, flows string) *scenario.Scenario {
	return seed002Scenario(tb, "leoem-live", dur, `path:
  profile: fixed
  rate: 150Mbps
  queue: {limit_packets: 50000}
  delay_file: {file: leoem/Starlink_SD_NY_15_BP_path.log, offset: 990s}`, flows)
}

// seed002Scenario parses a scenario of the given network (its path: or
// links: block), duration and flows as if it were a file of
// examples/seed002, so its delay files resolve there.
func seed002Scenario(tb testing.TB, name string, dur time.Duration, network, flows string) *scenario.Scenario {
	tb.Helper()
	sc, err := scenario.Parse("../examples/seed002/test.yaml", []byte("version: 1\nname: "+name+"\nduration: "+dur.String()+"\n"+network+"\nflows: "+flows+"\n"))
	if err != nil {
		tb.Fatal(err)
	}
	return sc
}

// FromSpec puts a timed link on the flows' time axis (the link clock
// starts startLead earlier) and hands the flows the path file's handovers:
// on a path, and on a topology whose link replays the file (its series is
// timed, the link's handovers the flows' schedule).
func TestFromSpecShiftsTimedLinks(t *testing.T) {
	for what, sc := range map[string]*scenario.Scenario{
		"path":            leoemScenario(t, 20*time.Second, "[{cca: satcp}]"),
		"topology's link": chainScenario(t, 20*time.Second, "[{cca: satcp, path: [access, leo]}]"),
	} {
		_, rc := liveConfig(t, sc, false)
		for name, build := range map[string]StageFactory{"downlink": rc.Downlink, "uplink": rc.Uplink} {
			st, err := build(func(time.Duration, *packet.Packet, link.DropCause) {})
			if err != nil {
				t.Fatal(err)
			}
			if s, ok := st.(link.Shift); !ok || s.By != startLead {
				t.Errorf("%s, %s: %T, want a link.Shift by %v", what, name, st, startLead)
			}
		}
		if rc.Schedule == nil || rc.Schedule(time.Now()).Next(0) != time.Second {
			t.Errorf("%s: the file's first handover (1 s) is not the flows' schedule", what)
		}
	}
}

// Acceptance 4 of issue 19, live: the LeoEM scenario runs in emu. A 1 ms
// probe of 125-byte packets reads the path file's one-way delay per second
// (median within ±0.2 ms: the pump's release error is p99 < 200 µs on a
// quiet host) and loses the NULL seconds' packets; then kernel CUBIC runs
// over the same path and sees its RTT (2 × the window's smallest one-way
// delay, 44.6 ms over 990–1010 s, plus at most 3 ms) and moves data. 20 s
// each.
func TestLiveLeoEMReplay(t *testing.T) {
	needEmu(t)
	dur := liveSeconds(t, 20*time.Second)
	sc := leoemScenario(t, dur, "[{cca: cbr, rate: 1Mbps, packet_size: 125, record: true}]")
	path := sc.PathLog()
	probeFileDelays(t, sc, dur, delayProbe{path: path, first: 990, tol: 0.2})
	minRTT := math.Inf(1)
	for k := range int(dur / time.Second) {
		if !path.Down[990+k] {
			minRTT = min(minRTT, 2e3*path.OWD[990+k])
		}
	}
	tcp := leoemScenario(t, dur, "[{cca: cubic}]")
	livetest.Repeat(t, func(a *livetest.Attempt) {
		_, rc := liveConfig(t, tcp, false)
		res := live(t, rc)
		f := res.Flows[0]
		a.Stall("pump gap max", time.Duration(res.Instrument["pump_gap_max_us"])*time.Microsecond, 5*time.Millisecond)
		t.Logf("run %d: kernel cubic %.1f Mbit/s, %d retrans, RTT min/mean %.1f/%.1f ms", a.N, f.ThroughputMbps, f.Retransmits, f.MinRTTMs, f.MeanRTTMs)
		if f.MinRTTMs < minRTT-0.2 || f.MinRTTMs > minRTT+3 {
			a.Errorf("min RTT %.2f ms, want the path's %.2f ms + at most 3", f.MinRTTMs, minRTT)
		}
		if f.ThroughputMbps < 20 {
			a.Errorf("%.1f Mbit/s: kernel cubic moved (almost) nothing over the path", f.ThroughputMbps)
		}
	})
}
