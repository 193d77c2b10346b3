package emu

import (
	"testing"
	"time"

	"github.com/leolab/leolab/internal/livetest"
)

func ecnScenario(ecn bool, dur time.Duration) string {
	on := "false"
	if ecn {
		on = "true"
	}
	return "version: 1\nname: ecn\nduration: " + dur.String() +
		"\npath: {profile: fixed, rate: 20Mbps, rtt: 20ms, queue: {discipline: codel, limit_packets: 1000, ecn: " + on + "}}\nflows: [{cca: cubic}]\n"
}

// A queue with ecn: true has the live run turn on kernel ECN; without it
// the namespaces keep the kernel's default.
func TestFromSpecECN(t *testing.T) {
	for _, ecn := range []bool{false, true} {
		_, rc := liveConfig(t, parse(t, ecnScenario(ecn, 5*time.Second)), false)
		if rc.ECN != ecn {
			t.Errorf("queue ecn %v: RunConfig.ECN %v", ecn, rc.ECN)
		}
	}
}

// Issue 19 ("ECN marking where the RFC has it", in emu): kernel CUBIC
// through CoDel (RFC 8289 §5: mark instead of drop) at 20 Mbit/s, 20 ms.
// With ecn: true the kernel negotiates ECN, its data is ECN-capable and
// CoDel marks it: no AQM drop (the 1000-packet limit, 12 BDPs, is never
// reached by a flow that backs off on ECE). With ecn: false CoDel drops.
func TestLiveECNMarksKernelTCP(t *testing.T) {
	needEmu(t)
	dur := liveSeconds(t, 8*time.Second)
	aqmDrops := map[bool]int64{}
	for _, ecn := range []bool{true, false} {
		livetest.Repeat(t, func(a *livetest.Attempt) {
			_, rc := liveConfig(t, parse(t, ecnScenario(ecn, dur)), false)
			res := live(t, rc)
			var aqm, all int64
			for _, l := range res.Links {
				aqm += l.Drops.AQM
				all += l.Drops.Head + l.Drops.Tail + l.Drops.AQM
			}
			f := res.Flows[0]
			t.Logf("run %d ecn %v: %.1f Mbit/s, %d retrans, %d AQM drops, %d queue drops", a.N, ecn, f.ThroughputMbps, f.Retransmits, aqm, all)
			if f.ThroughputMbps < 15 {
				a.Errorf("ecn %v: %.1f Mbit/s, want most of the 20 Mbit/s link", ecn, f.ThroughputMbps)
			}
			if ecn && all != 0 {
				a.Errorf("ecn on: %d queue drops (%d by CoDel): kernel TCP's packets were not ECN-capable", all, aqm)
			}
			aqmDrops[ecn] = aqm
		})
	}
	if aqmDrops[false] == 0 {
		t.Errorf("ecn off: CoDel dropped nothing: the comparison shows nothing")
	}
}
