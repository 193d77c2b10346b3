package hybla_test

import (
	"testing"

	_ "github.com/leolab/leolab/cc/hybla"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/scenario"
)

// Issue 5, acceptance 2, through the simulator (our transport, drop-tail
// link): alone on a fixed 50 Mbit/s, 60 ms path with a one-BDP buffer
// (250 packets of 1500 B) for 60 s, hybla uses at least 80% of the link.
func TestNetsimFixedLink(t *testing.T) {
	sc, err := scenario.Parse("acceptance.yaml", []byte(`version: 1
name: acceptance-hybla
duration: 60s
seed: 1
interval: 1s
path: {profile: fixed, rate: 50Mbps, rtt: 60ms, queue: {discipline: droptail, limit_packets: 250}, loss: 0}
flows:
  - {cca: hybla, start: 0s}
`))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := sc.Spec()
	if err != nil {
		t.Fatal(err)
	}
	res, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Flows[0]
	t.Logf("hybla: %.2f Mbit/s, %d retransmits, RTT min %.1f mean %.1f p95 %.1f ms",
		f.ThroughputMbps, f.Retransmits, f.MinRTTMs, f.MeanRTTMs, f.P95RTTMs)
	if f.ThroughputMbps < 0.8*50 {
		t.Errorf("throughput %.2f Mbit/s < 80%% of 50", f.ThroughputMbps)
	}
}
