package emu

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/internal/livetest"
)

// TestLiveTraceMahimahi replays Mahimahi's constant 12 Mbit/s trace
// (examples/trace/12mbps.txt: one 1504-byte opportunity per ms, 12.032
// Mbit/s) with a 10 ms owd live, through the same tracelink stages as the
// simulator. A CBR flow at 20 Mbit/s saturates it: the receiver gets the
// trace's capacity within 3 % (the first ~10 ms before the queue fills,
// and the pump's release error, well under 1 ms, are all that may differ).
// A light probe alone sees the owd plus the wait for the next whole
// millisecond (Mahimahi's rule): between 10 and 11 ms, plus the pump's
// release error (p99 < 200 µs on a quiet host, README).
func TestLiveTraceMahimahi(t *testing.T) {
	needEmu(t)
	path := "{profile: trace, direction: downlink, trace: {format: mahimahi, uplink: ../examples/trace/12mbps.txt, downlink: ../examples/trace/12mbps.txt, owd: 10ms, queue: {limit_packets: 100}}}"
	const capacity = 1504 * 8 * 1000 / 1e6 // Mbit/s
	sat := parse(t, fmt.Sprintf("version: 1\nduration: 5s\npath: %s\nflows: [{cca: cbr, rate: 20Mbps, packet_size: 1500, record: true}]\n", path))
	probe := parse(t, fmt.Sprintf("version: 1\nduration: 3s\npath: %s\nflows: [{cca: cbr, rate: 400kbps, packet_size: 100, start: 250us, record: true}]\n", path))
	livetest.Repeat(t, func(a *livetest.Attempt) {
		_, rc := liveConfig(t, sat, false)
		res := live(t, rc)
		gap := time.Duration(res.Instrument["pump_gap_max_us"]) * time.Microsecond
		a.Stall("pump gap max", gap, 5*time.Millisecond)
		in := 0
		for _, p := range res.Flows[0].Packets {
			if at := p.SentS + p.OWDMs/1e3; p.OWDMs > 0 && at >= 1 && at < 4 {
				in++
			}
		}
		got := float64(in) * 1500 * 8 / 3 / 1e6
		t.Logf("run %d: saturated: %.3f Mbit/s arrived in [1 s, 4 s), trace capacity %.3f; pump gap max %v", a.N, got, capacity, gap)
		if math.Abs(got/capacity-1) > 0.02 {
			a.Errorf("saturated: %.3f Mbit/s arrived in [1 s, 4 s), want the trace's %.3f within 2%%", got, capacity)
		}
		_, rc = liveConfig(t, probe, false)
		res = live(t, rc)
		// The delay bound allows 0.3 ms of release error: a run whose
		// pump released its p99 later than that was held by the host.
		a.Stall("probe run's release error p99", time.Duration(res.Instrument["release_err_p99_us"])*time.Microsecond, 300*time.Microsecond)
		var owd []float64
		for _, p := range res.Flows[0].Packets {
			if p.OWDMs > 0 {
				owd = append(owd, p.OWDMs)
			}
		}
		if len(owd) < 1000 {
			t.Fatalf("%d probes delivered, want ~1500", len(owd))
		}
		slices.Sort(owd)
		lo, hi := owd[len(owd)/100], owd[len(owd)*99/100]
		t.Logf("run %d: %d probes, one-way delay p1 %.3f, p99 %.3f, max %.3f ms (want (10, 11] + release error)", a.N, len(owd), lo, hi, owd[len(owd)-1])
		if lo < 9.9 || hi > 11.3 {
			a.Errorf("probes' one-way delay p1 %.3f, p99 %.3f ms, want in [9.9, 11.3] ms", lo, hi)
		}
	})
}
