package leocc

import (
	"testing"
	"time"
)

// TestWindowArithmetic: BDP in whole segments, the burst budget of
// leocc_quantization_budget and the PROBE_RTT window, on a 100 Mbit/s,
// 40 ms model: BDP = 500 000 B = 345.3 → 346 segments; the pacing rate
// 12.5 MB/s gives bursts of 12 207 B = 8 segments, budget 3·8 = 24.
func TestWindowArithmetic(t *testing.T) {
	l := newLeoCC(params{}, 1448, 14480, nil)
	l.minRTT = 40 * time.Millisecond
	l.pacing = 12.5e6
	if got := l.bdp(12.5e6, 1); got != 346*1448 {
		t.Errorf("bdp %d B, want 346 segments", got/1448)
	}
	if got := l.tsoGoal(); got != 8 {
		t.Errorf("burst %d segments, want 8", got)
	}
	l.mode = modeCruise
	l.cycleIdx = 2
	if got := l.quantize(346 * 1448); got != 370*1448 {
		t.Errorf("quantized %d segments, want 346+24 = 370", got/1448)
	}
	l.cycleIdx = 0
	if got := l.quantize(345 * 1448); got != 372*1448 {
		t.Errorf("quantized in UP %d segments, want 345+24 → 370 (even) + 2 = 372", got/1448)
	}
	l.bw.Reset(0, 12.5e6)
	if got := l.probeRTTCwnd(); got != 173*1448 {
		t.Errorf("PROBE_RTT window %d segments, want ⌈0.5·345.3⌉ = 173", got/1448)
	}
	l.minRTT = 0
	if got := l.bdp(12.5e6, 2); got != initCwndPkts*1448 {
		t.Errorf("bdp without an RTT sample %d B, want the initial 10 segments", got)
	}
}
