package fixed_test

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc/cctest"
	_ "github.com/leolab/leolab/cc/fixed"
)

func TestRegistered(t *testing.T) {
	cctest.Registered(t, "fixed", map[string]float64{"cwnd": 10},
		map[string]float64{"cwnd": 1}, map[string]float64{"cwnd": 2.5}, map[string]float64{"cwnd": 1e6}, map[string]float64{"window": 4})
}

// A fixed window is window-limited: its rate is cwnd/RTT wherever the
// link is faster, and it neither grows into a faster link nor backs off
// when the queue drops it. 10 segments over 100 ms is 10 × 1448 × 8 /
// 0.1 s = 1.158 Mbit/s of payload on a 50 Mbit/s link. On 1 Mbit/s at
// 50 ms (a BDP of 4.2 packets) with a 5-packet queue the same window is
// a packet more than the path holds, so the queue overflows every round
// while the link stays busy.
func TestWindowLimitedRate(t *testing.T) {
	res, err := cctest.Dumbbell{Name: "fixed", Mbps: 50, RTT: 100 * time.Millisecond, Limit: 100, Duration: 20 * time.Second, CCAs: []string{"fixed"}}.Run()
	if err != nil {
		t.Fatal(err)
	}
	want := 10 * 1448 * 8 / 0.1 / 1e6
	if got := res.Flows[0].ThroughputMbps; math.Abs(got/want-1) > 0.03 {
		t.Errorf("fixed 10-segment window over 100 ms: %.3f Mbit/s, want %.3f ±3 %%", got, want)
	}
	res, err = cctest.Dumbbell{Name: "fixed-overflow", Mbps: 1, RTT: 50 * time.Millisecond, Limit: 5, Duration: 30 * time.Second, CCAs: []string{"fixed"}}.Run()
	if err != nil {
		t.Fatal(err)
	}
	// 1 Mbit/s of 1500-byte IP packets is 0.965 Mbit/s of payload; the
	// retransmissions of the overflow take a share of it.
	if got := res.Flows[0].ThroughputMbps; got < 0.8 || got > 0.966 {
		t.Errorf("fixed window overflowing a 1 Mbit/s link: %.3f Mbit/s, want 0.8–0.966 (the link kept busy)", got)
	}
	if res.Flows[0].Retransmits == 0 {
		t.Error("a 10-segment window over a 4.2-packet BDP and a 5-packet queue lost nothing")
	}
}
