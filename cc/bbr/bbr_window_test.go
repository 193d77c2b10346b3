package bbr

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// TestV3ProbeRTT: with no RTT sample below probe_rtt_min, PROBE_RTT starts
// 5 s after the last one (the first time) and 5 s after the previous
// PROBE_RTT ended (later), holds cwnd at 0.5·BDP (≥ 4 packets), and ends
// 200 ms plus at most one round after inflight reached that level.
func TestV3ProbeRTT(t *testing.T) {
	c := newTest("bbr3", 2, nil)
	b := c.(*BBR)
	p := newSynth(c, 50e6, 40*time.Millisecond)
	var lowest, lastLow, armedAt, lastExit time.Duration
	lowest = math.MaxInt64
	entries := 0
	inProbe := false
	p.Observe = func(now time.Duration, rs *cc.RateSample) {
		if rs.RTT < lowest {
			lowest, lastLow = rs.RTT, now
		}
		switch {
		case b.mode == modeProbeRTT && !inProbe:
			inProbe = true
			entries++
			ref := lastLow
			if entries > 1 {
				ref = lastExit
			}
			if d := now - ref; d <= 5*time.Second || d > 5*time.Second+2*time.Millisecond {
				t.Errorf("PROBE_RTT %d entered %v after its reference, want just over 5 s", entries, d)
			}
			armedAt = 0
		case b.mode == modeProbeRTT:
			if b.probeArmed && armedAt == 0 {
				armedAt = now
			}
			want := max(4*1448, int(math.Ceil(0.5*b.bwEst()*b.minRTT.Seconds()/1448))*1448)
			if b.cwnd > want {
				t.Fatalf("PROBE_RTT cwnd %d > 0.5·BDP %d", b.cwnd, want)
			}
		case inProbe:
			inProbe = false
			lastExit = now
			if d := now - armedAt; armedAt == 0 || d <= 200*time.Millisecond || d > 200*time.Millisecond+50*time.Millisecond {
				t.Errorf("PROBE_RTT held %v at the low window, want 200 ms + ≤ 1 round", d)
			}
			if b.phase() != PhaseCruise {
				t.Errorf("left PROBE_RTT to phase %d, want CRUISE", b.phase())
			}
		}
	}
	p.Run(16 * time.Second)
	if entries < 3 {
		t.Fatalf("%d PROBE_RTT episodes in 16 s, want 3 (one per ~5.2 s)", entries)
	}
}

// TestV2ProbeRTTRefresh: v2 refreshes probe_rtt_min on equal samples, so on
// a path whose queue empties regularly it does not need PROBE_RTT, while
// v3 (strictly lower only) does.
func TestV2ProbeRTTRefresh(t *testing.T) {
	for name, want := range map[string]bool{"bbr2": false, "bbr3": true} {
		c := newTest(name, 2, nil)
		b := c.(*BBR)
		p := newSynth(c, 50e6, 40*time.Millisecond)
		entered := false
		p.Observe = func(time.Duration, *cc.RateSample) { entered = entered || b.mode == modeProbeRTT }
		p.Run(8 * time.Second)
		if entered != want {
			t.Errorf("%s: PROBE_RTT entered %v, want %v", name, entered, want)
		}
	}
}
