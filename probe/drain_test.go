package probe

import (
	"math"
	"testing"
	"time"
)

// DrainRate reads a burst's frame batches: a first partial batch, then
// 10 packets per 1.333 ms frame (90 Mbit/s), a partial last one; a
// competing flow's share of the frames counts towards the allocation.
func TestDrainRate(t *testing.T) {
	const frame = 1333333 * time.Nanosecond
	burst := &Trace{Size: 1500}
	other := &Trace{Size: 1500}
	add := func(tr *Trace, k, n int) {
		for range n {
			at := time.Duration(k) * frame
			tr.Samples = append(tr.Samples, Sample{Sent: at - 5*time.Millisecond, OWD: 5 * time.Millisecond})
		}
	}
	add(burst, 0, 3)
	for k := 1; k <= 12; k++ {
		add(burst, k, 6)
		add(other, k, 4)
	}
	add(burst, 13, 2)
	got, ok := DrainRate(burst, other)
	if want := 10 * 1500 * 8 / frame.Seconds() / 1e6; !ok || math.Abs(got-want) > 0.01 {
		t.Errorf("drain rate %.2f (ok %v), want %.2f", got, ok, want)
	}
	if _, ok := DrainRate(&Trace{Size: 1500, Samples: burst.Samples[:5]}); ok {
		t.Error("a burst of two batches gave a rate")
	}
}
