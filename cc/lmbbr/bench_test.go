package lmbbr

import (
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
)

// steadyAcks runs c on a 100 Mbit/s, 40 ms path for 3 s (past startup,
// into ProbeBW) and returns a function that feeds it one more ACK of a
// segment each call, 116 µs apart (100 Mbit/s of 1448-byte segments), so
// that ProbeBW keeps cycling and the policy keeps being asked.
func steadyAcks(c cc.Controller) func() {
	p := cctest.NewPath(c, 100e6, 40*time.Millisecond)
	var last cc.RateSample
	var now time.Duration
	p.Observe = func(t time.Duration, rs *cc.RateSample) { last, now = *rs, t }
	p.Run(3 * time.Second)
	rs := last
	rs.AckedBytes, rs.AckedPackets, rs.LostBytes, rs.LostPackets = 1448, 1, 0, 0
	i := 0
	return func() {
		i++
		now += 116 * time.Microsecond
		rs.PriorDelivered += 1448
		rs.TotalDelivered += 1448
		rs.RTT = 40*time.Millisecond + time.Duration(i%64)*time.Microsecond
		c.OnAck(now, &rs)
	}
}

// BenchmarkAckLinear is lmbbr's per-ACK cost with the embedded linear
// model: BBRv3's ACK processing plus, on round starts in UP and DOWN, the
// model's decision.
func BenchmarkAckLinear(b *testing.B) {
	c, err := cc.New("lmbbr", cc.Config{})
	if err != nil {
		b.Fatal(err)
	}
	ack := steadyAcks(c)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		ack()
	}
	m := c.(cc.Inspector).Inspect()
	b.ReportMetric((m["lm_up_calls"]+m["lm_down_calls"])/float64(b.N), "decisions/op")
}

// The per-ACK path allocates nothing, decisions included.
func TestAckPathAllocs(t *testing.T) {
	c, err := cc.New("lmbbr", cc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ack := steadyAcks(c)
	before := c.(cc.Inspector).Inspect()["lm_up_calls"] + c.(cc.Inspector).Inspect()["lm_down_calls"]
	if a := testing.AllocsPerRun(200_000, ack); a != 0 {
		t.Errorf("%g allocations per ACK", a)
	}
	m := c.(cc.Inspector).Inspect()
	if m["lm_up_calls"]+m["lm_down_calls"] <= before {
		t.Errorf("no decision in 200000 ACKs (23 s): the measurement missed the policy")
	}
}
