package scenario_test

import (
	"fmt"
	"testing"

	"github.com/leolab/leolab/internal/simtest"
	"github.com/leolab/leolab/link/qdisc"
	"github.com/leolab/leolab/packet"
)

// qdiscScenario: four cubic flows (and optionally a CBR mouse of 200-byte
// packets at 80 kbit/s) over a 20 Mbit/s, 40 ms fixed link.
func qdiscScenario(queue string, mouse bool) string {
	s := fmt.Sprintf(`version: 1
duration: 40s
path: {profile: fixed, rate: 20Mbps, rtt: 40ms, queue: %s}
flows:
  - {cca: cubic, count: 4}
`, queue)
	if mouse {
		s += "  - {cca: cbr, rate: 80Kbps, packet_size: 200}\n"
	}
	return s
}

// TestFQCoDelSplitsAmongCubicFlows: RFC 8290's DRR gives each of four
// backlogged flows a quantum per round, so their long-run throughputs are
// equal (Jain ≥ 0.99) whatever their windows.
func TestFQCoDelSplitsAmongCubicFlows(t *testing.T) {
	res := simtest.Run(t, qdiscScenario("{discipline: fq_codel}", false))
	var total float64
	for _, f := range res.Flows {
		total += f.ThroughputMbps
	}
	t.Logf("fq_codel: Jain %.4f, shares %v, total %.2f Mbit/s", res.Fairness.Jain, res.Fairness.Shares, total)
	if res.Fairness.Jain < 0.99 {
		t.Errorf("Jain %.4f < 0.99", res.Fairness.Jain)
	}
	if total < 0.9*20 {
		t.Errorf("total %.2f Mbit/s, want >= 90%% of 20", total)
	}
}

// TestMouseDelayFQCoDelVsDropTail: a sparse CBR flow's one-way delay next
// to four cubic flows. Under fq_codel its packets come from new_flows
// (RFC 8290 §4.2) and wait for the packet on the wire and, at worst, for
// the other flows that are new at that moment (a cubic flow whose queue
// emptied rejoins new_flows), each sending until its quantum is spent (at
// most a quantum plus an MTU): OWD ≤ RTT/2 + MTU + 4·(quantum + MTU) + its
// own serialisation. Under a drop-tail queue of one BDP (67 packets) cubic
// keeps a standing queue: after a loss the window falls to β = 0.7 of
// BDP + queue (RFC 9438 §4.6), 1.4 BDP → 0.98 BDP, so the queue stays
// above ~0 and averages about half of its 1 BDP between losses; the test
// asks for at least 0.3·RTT of queueing.
func TestMouseDelayFQCoDelVsDropTail(t *testing.T) {
	const rate, rtt = 20e6, 40.0 // bit/s, ms
	tx := func(bytes int) float64 { return float64(bytes*8) / rate * 1e3 }
	fq := simtest.Run(t, qdiscScenario("{discipline: fq_codel}", true))
	dt := simtest.Run(t, qdiscScenario("{discipline: droptail, limit_packets: 67}", true))
	fm, dm := fq.Flows[4], dt.Flows[4]
	t.Logf("mouse OWD: fq_codel mean %.3f ms p95 %.3f ms, droptail mean %.3f ms p95 %.3f ms; base %.1f ms", fm.MeanOWDMs, fm.P95OWDMs, dm.MeanOWDMs, dm.P95OWDMs, rtt/2)
	if bound := rtt/2 + tx(packet.MTU) + 4*tx(qdisc.FQCoDelQuantum+packet.MTU) + tx(200); fm.P95OWDMs > bound {
		t.Errorf("fq_codel: mouse p95 OWD %.3f ms > %.3f ms", fm.P95OWDMs, bound)
	}
	if q := dm.MeanOWDMs - rtt/2; q < 0.3*rtt {
		t.Errorf("droptail: mouse queueing %.3f ms < 0.3·RTT: the drop-tail queue should hold a standing queue", q)
	}
}
