package netsim_test

// Physical acceptance tests of the simulator core (issue "Simulator core"),
// run on the example scenarios so that each is reproducible with
// `leolab sim -f examples/...`.

import (
	"math"
	"testing"

	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

func runExample(t testing.TB, name string) *result.Result {
	t.Helper()
	_, spec, err := scenario.LoadSpec("../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	res, err := netsim.Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// utilisation is the forward link's delivered wire bytes over (from, to]
// divided by its capacity.
func utilisation(res *result.Result, rateBps, from, to float64) float64 {
	var bytes int64
	for _, s := range res.Links[0].Intervals {
		if s.T > from && s.T <= to {
			bytes += s.DeliveredBytes
		}
	}
	return float64(bytes) * 8 / (rateBps * (to - from))
}

// windowThroughput is a flow's acknowledged payload rate over (from, to].
func windowThroughput(f result.Flow, from, to float64) float64 {
	var bytes int64
	for _, iv := range f.Intervals {
		if iv.T > from && iv.T <= to {
			bytes += iv.Bytes
		}
	}
	return float64(bytes) * 8 / (to - from)
}

// One CUBIC flow keeps a one-BDP drop-tail bottleneck at least 90% busy:
// after a loss it backs off to β = 0.7 of the window, which with one BDP of
// buffer still exceeds the BDP.
func TestCubicUtilisation(t *testing.T) {
	res := runExample(t, "dumbbell-cubic.yaml")
	u := utilisation(res, 100e6, 10, 60)
	t.Logf("CUBIC utilisation 10–60 s: %.3f, retransmits %d, mean RTT %.1f ms",
		u, res.Flows[0].Retransmits, res.Flows[0].MeanRTTMs)
	if u < 0.90 {
		t.Fatalf("utilisation %.3f < 0.90", u)
	}
	if u > 1.0001 {
		t.Fatalf("utilisation %.4f exceeds capacity", u)
	}
}

// Two CUBIC flows with equal RTT converge to a fair share.
func TestCubicFairness(t *testing.T) {
	res := runExample(t, "two-cubic.yaml")
	a := windowThroughput(res.Flows[0], 30, 120)
	b := windowThroughput(res.Flows[1], 30, 120)
	jain := (a + b) * (a + b) / (2 * (a*a + b*b))
	t.Logf("two CUBIC: %.1f and %.1f Mbit/s, Jain %.4f", a/1e6, b/1e6, jain)
	if jain < 0.95 {
		t.Fatalf("Jain %.4f < 0.95", jain)
	}
}

// Reno's throughput goes as 1/RTT: a 20 ms flow gets at least twice the
// throughput of an 80 ms flow on the same bottleneck.
func TestRenoRTTUnfairness(t *testing.T) {
	res := runExample(t, "reno-rtt-unfairness.yaml")
	short, long := res.Flows[0].ThroughputMbps, res.Flows[1].ThroughputMbps
	t.Logf("Reno 20 ms: %.1f Mbit/s, 80 ms: %.1f Mbit/s (ratio %.2f)", short, long, short/long)
	if short < 2*long {
		t.Fatalf("short-RTT flow %.1f < 2 × long-RTT flow %.1f", short, long)
	}
}

// Reno under i.i.d. loss p follows Mathis et al. (CCR 1997):
// throughput = MSS·8/RTT · sqrt(3/2)/sqrt(p) ≈ MSS·8/RTT · 1.22/sqrt(p).
func TestRenoMathis(t *testing.T) {
	res := runExample(t, "reno-mathis.yaml")
	const mss, rtt, p = 1448.0, 0.050, 0.005
	want := mss * 8 / rtt * math.Sqrt(1.5) / math.Sqrt(p) / 1e6
	got := res.Flows[0].ThroughputMbps
	t.Logf("Reno at p=%.3f: %.2f Mbit/s, Mathis %.2f Mbit/s (ratio %.2f), mean RTT %.1f ms",
		p, got, want, got/want, res.Flows[0].MeanRTTMs)
	if math.Abs(got/want-1) > 0.25 {
		t.Fatalf("throughput %.2f Mbit/s not within ±25%% of Mathis %.2f", got, want)
	}
}
