package netsim

import (
	"math"
	"testing"
	"time"
)

// A host egress limit below the bottleneck sets the rate without a queue
// or a loss anywhere: the window (1000 packets, 12 BDPs of the limit) is
// far above what the limit lets out, the packets wait in the host
// (transport/hostrate.go), so the flow delivers the limit's payload share
// (1448 of each 1500 wire bytes) and its RTT stays at the base.
func TestHostRateLimit(t *testing.T) {
	const limit = 20e6
	spec := dumbbell(100e6, 100*time.Millisecond, 2000,
		FlowSpec{CCA: "test-fixed-window", Params: map[string]float64{"packets": 1000}, MaxRateBps: limit})
	res, err := Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Flows[0]
	// After the receive window's first growth (the first 2 s), every
	// second carries the limit: within 1 %.
	want := limit * 1448 / 1500 / 1e6
	var bytes int64
	for _, iv := range f.Intervals[2:] {
		bytes += iv.Bytes
	}
	got := float64(bytes) * 8 / float64(len(f.Intervals)-2) / 1e6
	if math.Abs(got/want-1) > 0.01 {
		t.Fatalf("throughput %.3f Mbit/s after 2 s, want %.3f ± 1%% (the host limit's payload rate)", got, want)
	}
	// Serialising a packet at 100 Mbit/s takes 0.12 ms: no queue builds.
	if f.Retransmits != 0 || f.MeanRTTMs > 101 {
		t.Fatalf("retransmits %d mean RTT %.2f ms; want 0 and the 100 ms base (the host holds the excess)", f.Retransmits, f.MeanRTTMs)
	}
	// Without the limit the same window fills the bottleneck's queue.
	spec.Flows[0].MaxRateBps = 0
	res, err = Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Flows[0]; got.ThroughputMbps < 2*want || got.MeanRTTMs < 110 {
		t.Fatalf("unlimited: throughput %.2f Mbit/s mean RTT %.1f ms; want the 100 Mbit/s link's and a standing queue", got.ThroughputMbps, got.MeanRTTMs)
	}
}

// A burst credit lets the flow leave at the path's pace until it is spent,
// then the limit holds: by the end of the run the host has sent its credit
// plus the limit's rate over the run (a token bucket's bound), and the last
// seconds are at the limit.
func TestHostRateBurstCredit(t *testing.T) {
	const limit, credit = 20e6, 10e6 // bits/s, bytes: ~1 s at the 100 Mbit/s link
	spec := dumbbell(100e6, 100*time.Millisecond, 2000,
		FlowSpec{CCA: "test-fixed-window", Params: map[string]float64{"packets": 1000}, MaxRateBps: limit, MaxRateBurst: credit})
	res, err := Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Flows[0]
	var bytes int64
	for _, iv := range f.Intervals {
		bytes += iv.Bytes
	}
	// A token bucket never lets out more than its depth plus the rate
	// over the run: wire bytes ≤ credit + limit·10 s, payload 1448/1500
	// of it. The bucket is full, and its refill wasted, only while the
	// receive window still grows (it starts at 10 segments and needs
	// about five 100 ms round trips to carry the limit): at least
	// credit + limit·9 s arrives.
	most := (credit + limit/8*spec.Duration.Seconds()) * 1448 / 1500
	least := (credit + limit/8*(spec.Duration.Seconds()-1)) * 1448 / 1500
	if got := float64(bytes); got > most || got < least {
		t.Fatalf("delivered %.2f MB in 10 s, want %.2f–%.2f MB (credit + limit over 9–10 s)", got/1e6, least/1e6, most/1e6)
	}
	first := float64(f.Intervals[1].Bytes) * 8 / 1e6 // the credit, at up to the link's 96.5 Mbit/s
	last := float64(f.Intervals[len(f.Intervals)-1].Bytes) * 8 / 1e6
	if first < 2*limit/1e6 || math.Abs(last/(limit*1448/1500/1e6)-1) > 0.02 {
		t.Fatalf("second 2 at %.1f Mbit/s (want > %.0f, the credit), last second %.2f (want the limit's %.2f ± 2%%)", first, 2*limit/1e6, last, limit*1448/1500/1e6)
	}
}
