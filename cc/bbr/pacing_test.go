package bbr

import (
	"testing"
	"time"
)

// TestPacingArithmetic checks the Linux formulas on worked numbers.
func TestPacingArithmetic(t *testing.T) {
	if got := pacingRate(12.5e6, 1.25); got != 12.5e6*1.25*0.99 {
		t.Errorf("pacing %v, want gain·bw·0.99", got)
	}
	// 100 Mbit/s × 50 ms = 625000 B = 431.6 → 432 segments of 1448 B.
	if got := bdp(12.5e6, 50*time.Millisecond, 1, 1448, 14480); got != 432*1448 {
		t.Errorf("bdp %d, want 432 segments", got)
	}
	if got := bdp(12.5e6, 0, 1, 1448, 14480); got != 14480 {
		t.Errorf("bdp without RTT %d, want the initial cwnd", got)
	}
	// TSO goal at 12.375 MB/s: 12375000>>10 = 12084 B → 8 segments.
	if got := tsoSegsV1(12.375e6, 1448); got != 8 {
		t.Errorf("v1 tso segs %d, want 8", got)
	}
	if got := tsoSegsV1(100e3, 1448); got != 1 {
		t.Errorf("v1 tso segs below 1.2 Mbit/s %d, want 1", got)
	}
	// v3 at 50 ms: RTT allowance 65536>>97 vanishes; same 8 segments.
	if got := tsoSegsV2(12.375e6, 50*time.Millisecond, 1448, true); got != 8 {
		t.Errorf("v3 tso segs %d, want 8", got)
	}
	// 1 ms RTT: 65536 >> (1000>>9 = 1) = 32768 extra bytes → 30 segments.
	if got := tsoSegsV2(12.375e6, time.Millisecond, 1448, true); got != (12084+32768)/1448 {
		t.Errorf("v3 tso segs at 1 ms %d", got)
	}
	// v1 budget: 100 segments + 3·8 = 124 (even) + 2 in the probe phase.
	if got := quantizationV1(100*1448, 8, 1448, true); got != 126*1448 {
		t.Errorf("v1 quantization %d segments, want 126", got/1448)
	}
	if got := quantizationV2(10*1448, 8, 1448, false); got != 24*1448 {
		t.Errorf("v2 quantization %d segments, want the 3·TSO floor 24", got/1448)
	}
	if got := initialPacingRate(14480, 0, 2.77); got != 2.77*14480/1e-3*0.99 {
		t.Errorf("initial pacing %v", got)
	}
}
