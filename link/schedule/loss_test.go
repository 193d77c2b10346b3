package schedule

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// Loss 0 until 10 s, then 10 %: 100 000 packets on each side, none lost
// before and 10 % after within 4 standard errors (√(0.1·0.9/1e5) = 0.095 %).
func TestLossSchedule(t *testing.T) {
	prof, _ := NewProfile(0, []Change{{At: 10 * time.Second, Value: 0.1}})
	var before, after int
	l, err := NewLoss(prof, rngFor(7), func(now time.Duration, _ *packet.Packet, c link.DropCause) {
		if c != link.DropRandom {
			t.Fatalf("cause %v", c)
		}
		if now < 10*time.Second {
			before++
		} else {
			after++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	const n = 100000
	for i := range 2 * n {
		now := time.Duration(i) * 100 * time.Microsecond // 10 s per 100 000
		l.Enqueue(now, &packet.Packet{})
		for l.Dequeue(now) != nil {
		}
	}
	if frac := float64(after) / n; before != 0 || math.Abs(frac-0.1) > 4*math.Sqrt(0.1*0.9/n) {
		t.Errorf("lost %d before, %.4f after; want 0 and 0.1", before, frac)
	}
	if _, err := NewLoss(Constant(1), rngFor(1), nil); err == nil {
		t.Error("loss 1 accepted")
	}
}
