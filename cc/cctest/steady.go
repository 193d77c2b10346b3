package cctest

import (
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// The steady-ACK fixture: a path fast enough that a controller's per-ACK
// work dominates, long enough in RTTs to leave startup behind.
const (
	steadyBitsPerSec = 100e6
	steadyRTT        = 40 * time.Millisecond
	// steadyWarmup is 75 RTTs: BBR's startup doubles from 10 segments to
	// the 345-segment BDP in ~6 rounds, then waits 3 rounds without growth
	// and drains, so a BBR-family controller is cycling ProbeBW by then.
	steadyWarmup = 3 * time.Second
	// steadyGap is one DefaultMSS segment at 100 Mbit/s (115.84 µs),
	// rounded to the µs.
	steadyGap = 116 * time.Microsecond
	// steadyJitter: the RTT of successive ACKs steps through 64 values
	// 1 µs apart above the base, so it is never a constant.
	steadyJitter = 64
)

// SteadyAcks runs c on a 100 Mbit/s, 40 ms Path for 3 s (past startup,
// into ProbeBW for BBR and its kin) and returns a function that feeds c
// one more ACK of a DefaultMSS segment each call, 116 µs apart, with
// nothing lost: the per-ACK path in steady state, for benchmarks and
// allocation tests. The function allocates nothing itself.
func SteadyAcks(c cc.Controller) func() {
	p := NewPath(c, steadyBitsPerSec, steadyRTT)
	var last cc.RateSample
	var now time.Duration
	p.Observe = func(t time.Duration, rs *cc.RateSample) { last, now = *rs, t }
	p.Run(steadyWarmup)
	rs := last
	rs.AckedBytes, rs.AckedPackets, rs.LostBytes, rs.LostPackets = DefaultMSS, 1, 0, 0
	i := 0
	return func() {
		i++
		now += steadyGap
		rs.PriorDelivered += DefaultMSS
		rs.TotalDelivered += DefaultMSS
		rs.RTT = steadyRTT + time.Duration(i%steadyJitter)*time.Microsecond
		c.OnAck(now, &rs)
	}
}

// BenchAcks benchmarks c's per-ACK cost on SteadyAcks, reporting
// allocations and, when keys are given, the sum of those Inspect counters
// (which c must then expose) per ACK under unit, e.g. lmbbr's policy
// calls as "decisions/op". The counters include the warm-up's.
func BenchAcks(b *testing.B, c cc.Controller, unit string, keys ...string) {
	b.Helper()
	var in cc.Inspector
	if len(keys) > 0 {
		var ok bool
		if in, ok = c.(cc.Inspector); !ok {
			b.Fatalf("%T has no Inspect for the counters %v", c, keys)
		}
	}
	ack := SteadyAcks(c)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		ack()
	}
	if in == nil {
		return
	}
	m := in.Inspect()
	sum := 0.0
	for _, k := range keys {
		sum += m[k]
	}
	b.ReportMetric(sum/float64(b.N), unit)
}
