package copa_test

import (
	"testing"
	"time"

	"github.com/leolab/leolab/cc/cctest"
	_ "github.com/leolab/leolab/cc/copa"
)

// Issue 5, acceptance 2, through the simulator (our transport, drop-tail
// link): alone on a fixed 50 Mbit/s, 60 ms path with a one-BDP buffer
// (250 packets of 1500 B) for 60 s, copa uses at least 80% of the link.
func TestNetsimFixedLink(t *testing.T) {
	res, err := cctest.Dumbbell{Name: "acceptance-copa", Mbps: 50, RTT: 60 * time.Millisecond, Limit: 250,
		Duration: 60 * time.Second, CCAs: []string{"copa"}}.Run()
	if err != nil {
		t.Fatal(err)
	}
	f := res.Flows[0]
	t.Logf("copa: %.2f Mbit/s, %d retransmits, RTT min %.1f mean %.1f p95 %.1f ms",
		f.ThroughputMbps, f.Retransmits, f.MinRTTMs, f.MeanRTTMs, f.P95RTTMs)
	if f.ThroughputMbps < 0.8*50 {
		t.Errorf("throughput %.2f Mbit/s < 80%% of 50", f.ThroughputMbps)
	}
	if q := f.MeanRTTMs - f.MinRTTMs; q > 0.2*60 {
		t.Errorf("mean queueing delay %.1f ms ≥ 20%% of the 60 ms base RTT", q)
	}
}
