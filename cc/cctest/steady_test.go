package cctest

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// ackLog is a fixed window that records the ACKs after the warm-up and
// counts every ACK as an Inspect counter.
type ackLog struct {
	fixedWindow
	record bool
	acks   []cc.RateSample
	times  []time.Duration
	count  float64
}

func (a *ackLog) OnAck(now time.Duration, rs *cc.RateSample) {
	a.count++
	if a.record {
		a.acks, a.times = append(a.acks, *rs), append(a.times, now)
	}
}

func (a *ackLog) Inspect() map[string]float64 {
	return map[string]float64{"acks": a.count, "half": a.count / 2}
}

// After the warm-up each call is one lossless ACK of a 1448-byte segment,
// 116 µs after the last, the delivery counters one segment further and
// the RTT within 64 µs above the 40 ms base.
func TestSteadyAcks(t *testing.T) {
	// A window of 400 segments keeps the 345-segment BDP busy.
	c := &ackLog{fixedWindow: fixedWindow{cwnd: 400 * DefaultMSS, pacing: math.Inf(1)}}
	ack := SteadyAcks(c)
	if c.count == 0 {
		t.Fatal("no ACK in the 3 s warm-up")
	}
	c.record = true
	for range 130 {
		ack()
	}
	for i := 1; i < len(c.acks); i++ {
		rs, prev := c.acks[i], c.acks[i-1]
		if d := c.times[i] - c.times[i-1]; d != 116*time.Microsecond {
			t.Fatalf("ACK %d: %v after the last, want 116µs", i, d)
		}
		if rs.AckedBytes != DefaultMSS || rs.AckedPackets != 1 || rs.LostBytes != 0 || rs.LostPackets != 0 {
			t.Fatalf("ACK %d: acked %d B in %d, lost %d B in %d; want one segment, none lost", i, rs.AckedBytes, rs.AckedPackets, rs.LostBytes, rs.LostPackets)
		}
		if rs.TotalDelivered-prev.TotalDelivered != DefaultMSS || rs.PriorDelivered-prev.PriorDelivered != DefaultMSS {
			t.Fatalf("ACK %d: delivered +%d, prior +%d; want +%d each", i, rs.TotalDelivered-prev.TotalDelivered, rs.PriorDelivered-prev.PriorDelivered, DefaultMSS)
		}
	}
	lo, hi := time.Hour, time.Duration(0)
	for _, rs := range c.acks {
		lo, hi = min(lo, rs.RTT), max(hi, rs.RTT)
	}
	if lo != 40*time.Millisecond || hi != 40*time.Millisecond+63*time.Microsecond {
		t.Errorf("RTTs in [%v, %v] over 130 ACKs, want [40ms, 40.063ms]", lo, hi)
	}
	c.record = false
	if a := testing.AllocsPerRun(1000, ack); a != 0 {
		t.Errorf("%g allocations per ACK", a)
	}
}

// BenchAcks reports the counters named per ACK: every ACK counted since
// the warm-up's first, so at least one per iteration.
func TestBenchAcks(t *testing.T) {
	var warm float64
	r := testing.Benchmark(func(b *testing.B) {
		c := &ackLog{fixedWindow: fixedWindow{cwnd: 400 * DefaultMSS, pacing: math.Inf(1)}}
		BenchAcks(b, c, "acks/op", "acks", "half")
		warm = c.count - float64(b.N)
	})
	got, want := r.Extra["acks/op"], 1.5*(warm+float64(r.N))/float64(r.N)
	if r.N == 0 || math.Abs(got-want) > 1e-9*want || got < 1.5 {
		t.Errorf("%d iterations: %g acks/op, want %g (1.5 × (%g warm-up + N) / N)", r.N, got, want, warm)
	}
	if r.AllocsPerOp() != 0 {
		t.Errorf("%d allocations per ACK", r.AllocsPerOp())
	}
}
