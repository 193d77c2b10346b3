package leocc

import (
	"testing"
	"time"
)

// TestAggregation: ACKs arriving in clumps of two 10 kB ACKs every 20 ms
// at a model rate of 1 MB/s (the average rate: 20 kB per 20 ms) deliver
// each clump at once, so the extra acked is one clump, 20 kB; the cwnd
// allowance is capped at 100 ms of data at the model rate.
func TestAggregation(t *testing.T) {
	var a aggregation
	a.restart(0)
	for i := 1; i <= 50; i++ {
		now := time.Duration(i) * 20 * time.Millisecond
		a.update(now, 10000, 1e6, false, 1<<30, 1448)
		a.update(now, 10000, 1e6, false, 1<<30, 1448)
	}
	if got := a.get(); got != 20000 {
		t.Errorf("extra acked %d B, want one clump, 20 000 B", got)
	}
	if got := a.cwnd(1e5); got != 10000 {
		t.Errorf("allowance %d B at 100 kB/s, want capped at 100 ms = 10 000 B", got)
	}
	if got := a.cwnd(1e6); got != 20000 {
		t.Errorf("allowance %d B at 1 MB/s, want the 20 000 B extra", got)
	}
}
