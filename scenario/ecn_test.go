package scenario_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/netsim"
)

// Issue 19 ("ECN marking where the RFC has it", in sim): CUBIC through
// CoDel at 20 Mbit/s, 20 ms, 30 s. With ecn: true the simulated sender's
// segments are ECN-capable, CoDel marks instead of dropping (RFC 8289 §5)
// and the sender reduces once per window on ECN-Echo (RFC 3168 §6.1.2):
// no AQM drop and no retransmission, while CoDel still holds the queue
// near its 5 ms target (mean RTT within base + 4 targets). With ecn:
// false the same AQM drops and CUBIC retransmits. Both fill the link:
// CoDel's control law keeps CUBIC above 90 % of 20 Mbit/s here.
func TestSimECNMarksInsteadOfDrops(t *testing.T) {
	for _, ecn := range []bool{true, false} {
		res := runYAML(t, fmt.Sprintf(`version: 1
name: ecn
duration: 30s
path: {profile: fixed, rate: 20Mbps, rtt: 20ms, queue: {discipline: codel, limit_packets: 1000, ecn: %v}}
flows: [{cca: cubic}]
`, ecn))
		var aqm, all int64
		for _, l := range res.Links {
			aqm += l.Drops.AQM
			all += l.Drops.Head + l.Drops.Tail + l.Drops.AQM
		}
		f := res.Flows[0]
		t.Logf("ecn %v: %.2f Mbit/s, %d retransmits, %d AQM drops, mean RTT %.1f ms", ecn, f.ThroughputMbps, f.Retransmits, aqm, f.MeanRTTMs)
		if f.ThroughputMbps < 0.9*20 {
			t.Errorf("ecn %v: %.2f Mbit/s, want ≥ 90 %% of the 20 Mbit/s link", ecn, f.ThroughputMbps)
		}
		if f.MeanRTTMs > 20+4*5 {
			t.Errorf("ecn %v: mean RTT %.1f ms, want ≤ 40 ms (CoDel's 5 ms target holds the queue)", ecn, f.MeanRTTMs)
		}
		if ecn && (all != 0 || f.Retransmits != 0) {
			t.Errorf("ecn on: %d queue drops (%d by CoDel), %d retransmits: want none (marks, not drops)", all, aqm, f.Retransmits)
		}
		if !ecn && (aqm == 0 || f.Retransmits == 0) {
			t.Errorf("ecn off: %d CoDel drops, %d retransmits: want both > 0", aqm, f.Retransmits)
		}
	}
}

// episodeCounter counts the reductions the transport asks a controller for
// and the ACKs that carry ECN-Echo.
type episodeCounter struct {
	cc.Controller
	episodes, ece, cwrAcks int
}

func (e *episodeCounter) OnAck(now time.Duration, rs *cc.RateSample) {
	if rs.NewLossEpisode {
		e.episodes++
	}
	if rs.ECEBytes > 0 {
		e.ece++
	}
	if rs.InCWR {
		e.cwrAcks++
	}
	e.Controller.OnAck(now, rs)
}

// RFC 3168 §6.1.2: however many ACKs echo CE, the sender reduces at most
// once per window of data — here once per round trip at most, so over 30 s
// at a 20 ms base RTT no more than 1500 reductions, and fewer than the
// ACKs carrying ECE (a mark arriving while the window is held reduces
// nothing more).
func TestSimECNReducesOncePerWindow(t *testing.T) {
	_, spec := loadSpec(t, writeScenario(t, `version: 1
name: ecn
duration: 30s
path: {profile: fixed, rate: 20Mbps, rtt: 20ms, queue: {discipline: red, limit_packets: 1000, ecn: true}}
flows: [{cca: cubic}]
`))
	var ctr *episodeCounter
	spec.Flows[0].Controller = func(cfg cc.Config) (cc.Controller, error) {
		c, err := cc.New("cubic", cfg)
		ctr = &episodeCounter{Controller: c}
		return ctr, err
	}
	res, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Flows[0]
	t.Logf("%d reductions, %d ACKs with ECE, %d ACKs in CWR; %.2f Mbit/s, %d retransmits, min RTT %.1f ms",
		ctr.episodes, ctr.ece, ctr.cwrAcks, f.ThroughputMbps, f.Retransmits, f.MinRTTMs)
	if ctr.ece == 0 || ctr.episodes == 0 {
		t.Fatalf("no ECN-Echo (%d) or no reduction (%d): RED marked nothing", ctr.ece, ctr.episodes)
	}
	if maxRed := int(30 * time.Second / (20 * time.Millisecond)); ctr.episodes > maxRed {
		t.Errorf("%d reductions in 30 s, more than one per 20 ms round trip (%d)", ctr.episodes, maxRed)
	}
	if ctr.episodes >= ctr.ece {
		t.Errorf("%d reductions for %d ECE ACKs: want fewer (once per window)", ctr.episodes, ctr.ece)
	}
	if f.Retransmits != 0 {
		t.Errorf("%d retransmits: an ECN reduction retransmits nothing", f.Retransmits)
	}
}
