package bbr

import (
	"testing"
	"time"
)

// TestAggregation: ACKs arriving in 10 ms clumps on a 10 MB/s path carry
// ~10 ms of data at once; the extra-acked estimate is the clump size less
// what the bandwidth predicts, and the allowance is capped at 100 ms.
func TestAggregation(t *testing.T) {
	var a aggregation
	const bw = 10e6
	now := time.Duration(0)
	a.restart(now)
	for clump := range 20 {
		now = time.Duration(clump) * 10 * time.Millisecond
		for range 69 { // 69 × 1448 B ≈ 100 KB = 10 ms at 10 MB/s, all at once
			a.update(now, 1448, bw, false, extraAckedWinRounds, 1<<30, 1448)
		}
	}
	// Within a clump: epoch restarts at its first ACK (the rate fell below
	// the expectation during the silence), so extra = 69·1448 − 0.
	if got, want := a.get(), 69*1448; got != want {
		t.Errorf("extra acked %d, want %d", got, want)
	}
	if got := a.cwnd(bw, 1); got != 69*1448 {
		t.Errorf("aggregation cwnd %d", got)
	}
	if got := a.cwnd(1e5, 1); got != int(1e5*0.1) {
		t.Errorf("aggregation cwnd %d, want the 100 ms cap %d", got, int(1e4))
	}
}
