package netsim

import (
	"math"
	"testing"
	"time"
)

// A receiver's window ceiling bounds what a sender with a larger window
// has in flight: once the autotuned window reaches the ceiling W, a
// flow over a fast link with base RTT R delivers W/R, whatever its cwnd,
// and the bottleneck's queue never fills (no loss). Without the ceiling
// the same cwnd (4000 packets, ~5.8 MB) delivers more and fills the queue.
func TestReceiverWindowCeiling(t *testing.T) {
	const rwnd = 1 << 20 // bytes
	const rtt = 100 * time.Millisecond
	spec := dumbbell(1e9, rtt, 20000,
		FlowSpec{CCA: "test-fixed-window", Params: map[string]float64{"packets": 4000}, Rwnd: rwnd})
	res, err := Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Flows[0]
	// The autotuned window reaches 1 MiB within ~1 s (it at most triples
	// per round trip from 10 segments); the last 5 s carry W/R each.
	want := float64(rwnd) / rtt.Seconds() * 8 / 1e6
	var bytes int64
	for _, iv := range f.Intervals[5:] {
		bytes += iv.Bytes
	}
	got := float64(bytes) * 8 / float64(len(f.Intervals)-5) / 1e6
	if math.Abs(got/want-1) > 0.05 {
		t.Fatalf("throughput %.2f Mbit/s over the last 5 s, want the window's %.2f ± 5%%", got, want)
	}
	if f.Retransmits != 0 {
		t.Fatalf("%d retransmissions; a 1 MiB window on a 1 Gbit/s link loses nothing", f.Retransmits)
	}
	spec.Flows[0].Rwnd = 0
	res, err = Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Flows[0]; f.ThroughputMbps < 2*want {
		t.Fatalf("default ceiling: %.2f Mbit/s, want the 4000-packet window's (> %.0f)", f.ThroughputMbps, 2*want)
	}
}
