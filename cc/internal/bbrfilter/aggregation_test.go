package bbrfilter

import (
	"testing"
	"time"
)

// TestExtraAckedClumps: ACKs arriving in 10 ms clumps on a 10 MB/s path
// carry ~10 ms of data at once; the extra-acked estimate is the clump
// size less what the bandwidth predicts, and the allowance is capped at
// 100 ms.
func TestExtraAckedClumps(t *testing.T) {
	var a ExtraAcked
	const bw = 10e6
	now := time.Duration(0)
	a.Restart(now)
	for clump := range 20 {
		now = time.Duration(clump) * 10 * time.Millisecond
		for range 69 { // 69 × 1448 B ≈ 100 KB = 10 ms at 10 MB/s, all at once
			a.Update(now, 1448, bw, false, ExtraAckedWinRounds, 1<<30, 1448)
		}
	}
	// Within a clump: epoch restarts at its first ACK (the rate fell below
	// the expectation during the silence), so extra = 69·1448 − 0.
	if got, want := a.Get(), 69*1448; got != want {
		t.Errorf("extra acked %d, want %d", got, want)
	}
	if got := a.CWnd(bw, 1); got != 69*1448 {
		t.Errorf("aggregation cwnd %d", got)
	}
	if got := a.CWnd(1e5, 1); got != int(1e5*0.1) {
		t.Errorf("aggregation cwnd %d, want the 100 ms cap %d", got, int(1e4))
	}
}

// TestExtraAckedAverageRate: clumps of two 10 kB ACKs every 20 ms at a
// model rate of 1 MB/s (the average rate: 20 kB per 20 ms) deliver each
// clump at once, so the extra acked is one clump, 20 kB; the allowance is
// capped at 100 ms of data at the model rate and scales with the gain.
func TestExtraAckedAverageRate(t *testing.T) {
	var a ExtraAcked
	a.Restart(0)
	for i := 1; i <= 50; i++ {
		now := time.Duration(i) * 20 * time.Millisecond
		a.Update(now, 10000, 1e6, false, ExtraAckedWinRounds, 1<<30, 1448)
		a.Update(now, 10000, 1e6, false, ExtraAckedWinRounds, 1<<30, 1448)
	}
	if got := a.Get(); got != 20000 {
		t.Errorf("extra acked %d B, want one clump, 20 000 B", got)
	}
	if got := a.CWnd(1e5, 1); got != 10000 {
		t.Errorf("allowance %d B at 100 kB/s, want capped at 100 ms = 10 000 B", got)
	}
	if got := a.CWnd(1e6, 1); got != 20000 {
		t.Errorf("allowance %d B at 1 MB/s, want the 20 000 B extra", got)
	}
	if got := a.CWnd(1e6, 2); got != 40000 {
		t.Errorf("allowance %d B at gain 2, want 40 000 B", got)
	}
}

// TestExtraAckedSubwindows: a burst is remembered for one to two
// sub-windows of rounds, then forgotten.
func TestExtraAckedSubwindows(t *testing.T) {
	var a ExtraAcked
	a.Update(0, 50000, 1e6, false, ExtraAckedWinRounds, 1<<30, 1448) // one 50 kB burst
	if a.Get() != 50000 {
		t.Fatalf("extra acked %d after the burst, want 50 000", a.Get())
	}
	for r := 1; r <= 2*ExtraAckedWinRounds; r++ {
		// One ACK per 100 ms round: the model expects 100 kB more than
		// the epoch holds, so the epoch restarts and adds nothing.
		a.Update(time.Duration(r)*100*time.Millisecond, 1448, 1e6, true, ExtraAckedWinRounds, 1<<30, 1448)
		if want := r < 2*ExtraAckedWinRounds; (a.Get() == 50000) != want || !want && a.Get() != 1448 {
			t.Fatalf("round %d: extra acked %d, burst remembered %v", r, a.Get(), !want)
		}
	}
}

func BenchmarkExtraAckedUpdate(b *testing.B) {
	b.ReportAllocs()
	var a ExtraAcked
	for i := range b.N {
		a.Update(time.Duration(i)*time.Microsecond, 1448, 1e9, i%100 == 0, ExtraAckedWinRounds, 1<<20, 1448)
	}
}
