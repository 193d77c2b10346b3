package hybla_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/leolab/leolab/cc/cctest"
	"github.com/leolab/leolab/cc/hybla"
	"github.com/leolab/leolab/internal/simtest"
)

// Issue 5, acceptance 2, through the simulator (our transport, drop-tail
// link): alone on a fixed 50 Mbit/s, 60 ms path with a one-BDP buffer
// (250 packets of 1500 B) for 60 s, hybla uses at least 80% of the link.
func TestNetsimFixedLink(t *testing.T) {
	cctest.FixedLink(t, "hybla")
}

// Linux counts one Hybla increment per ACK (hybla_cong_avoid), so behind
// our receiver, which ACKs every second segment, avoidance adds rho²/2
// segments per round trip: on a 100 Mbit/s, 100 ms path (rho ≈ 4) whose
// 100-packet drop-tail queue ends each sawtooth, the window between
// losses grows by rho²/2 per smoothed RTT of each 100 ms sample, within
// 10% (the receiver's window growth ACKs a few segments at once, each
// worth a full increment). The paper's per-segment counting (per_ack=0)
// grows twice as fast, which the same bound rejects.
func TestNetsimAvoidancePerAck(t *testing.T) {
	for _, perAck := range []int{1, 0} {
		res := simtest.Run(t, fmt.Sprintf(`version: 1
name: hybla-avoidance
duration: 60s
interval: 100ms
path: {profile: fixed, rate: 100Mbps, rtt: 100ms, queue: {limit_packets: 100}, loss: 0}
flows: [{cca: hybla, params: {per_ack: %d}}]
`, perAck))
		iv := res.Flows[0].Intervals
		var grown, want float64
		for i := 1; i < len(iv); i++ {
			a, b := iv[i-1], iv[i]
			// Avoidance on both sides, no loss between: a clean stretch.
			if a.CC["phase"] != hybla.PhaseAvoidance || b.CC["phase"] != hybla.PhaseAvoidance ||
				b.Retransmits > 0 || b.CC["cwnd_pkts"] < a.CC["cwnd_pkts"] {
				continue
			}
			rho := b.CC["rho"]
			dt := b.T - a.T
			grown += b.CC["cwnd_pkts"] - a.CC["cwnd_pkts"]
			want += rho * rho / 2 * dt / (b.SRTTMs / 1e3)
		}
		t.Logf("per_ack %d: grew %.0f segments in avoidance, rho²/2 per RTT gives %.0f", perAck, grown, want)
		if want < 200 {
			t.Fatalf("per_ack %d: only %.0f segments of expected growth: too few clean avoidance samples", perAck, want)
		}
		ok := math.Abs(grown-want) <= 0.1*want
		if ok != (perAck == 1) {
			t.Errorf("per_ack %d: grew %.0f segments, rho²/2 per RTT predicts %.0f (±10%%): within %v, want %v", perAck, grown, want, ok, perAck == 1)
		}
	}
}
