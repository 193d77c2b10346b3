package lmbbr

import (
	"testing"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
)

// decisionKeys are the Inspect counters of the policy's calls: a
// decision per round start in UP and in DOWN.
var decisionKeys = []string{"lm_up_calls", "lm_down_calls"}

// BenchmarkAckLinear is lmbbr's per-ACK cost with the embedded linear
// model: BBRv3's ACK processing plus, on round starts in UP and DOWN, the
// model's decision. cctest.SteadyAcks keeps ProbeBW cycling, so the
// policy keeps being asked.
func BenchmarkAckLinear(b *testing.B) {
	c, err := cc.New("lmbbr", cc.Config{})
	if err != nil {
		b.Fatal(err)
	}
	cctest.BenchAcks(b, c, "decisions/op", decisionKeys...)
}

// The per-ACK path allocates nothing, decisions included.
func TestAckPathAllocs(t *testing.T) {
	c, err := cc.New("lmbbr", cc.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ack := cctest.SteadyAcks(c)
	before := c.(cc.Inspector).Inspect()["lm_up_calls"] + c.(cc.Inspector).Inspect()["lm_down_calls"]
	if a := testing.AllocsPerRun(200_000, ack); a != 0 {
		t.Errorf("%g allocations per ACK", a)
	}
	m := c.(cc.Inspector).Inspect()
	if m["lm_up_calls"]+m["lm_down_calls"] <= before {
		t.Errorf("no decision in 200000 ACKs (23 s): the measurement missed the policy")
	}
}
