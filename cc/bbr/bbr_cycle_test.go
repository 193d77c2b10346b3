package bbr

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// gainsV3 are the (pacing, cwnd) gains BBRv3 must use in each phase.
var gainsV3 = map[int][2]float64{
	PhaseStartup: {2.77, 2}, PhaseDrain: {1000.0 / 2885, 2}, PhaseDown: {0.91, 2},
	PhaseCruise: {1, 2}, PhaseRefill: {1, 2}, PhaseUp: {1.25, 2.25}, PhaseProbeRTT: {1, 1},
}

// TestV3PhaseSequence: STARTUP → DRAIN → PROBE_BW DOWN, then the cycle
// DOWN → CRUISE → REFILL → UP → DOWN with the Linux v3 gains, REFILL
// starting 2–3 s after DOWN (the randomized probe wait, or 63 rounds ≈
// 2.5 s at 40 ms), REFILL lasting one round. PROBE_RTT may interrupt
// CRUISE and returns to it, restarting the probe wait.
func TestV3PhaseSequence(t *testing.T) {
	c := newTest("bbr3", 9, nil)
	b := c.(*BBR)
	p := newSynth(c, 100e6, 40*time.Millisecond)
	p.Buffer = int(p.BDPBytes())
	var seq []int
	var downAt, refillAt time.Duration
	next := map[int]int{PhaseDown: PhaseCruise, PhaseCruise: PhaseRefill, PhaseRefill: PhaseUp, PhaseUp: PhaseDown}
	p.Observe = func(now time.Duration, rs *cc.RateSample) {
		ph := b.phase()
		if g := gainsV3[ph]; math.Abs(b.pacingGain-g[0]) > 1e-9 || math.Abs(b.cwndGain-g[1]) > 1e-9 {
			t.Fatalf("%v phase %d gains %v/%v, want %v", now, ph, b.pacingGain, b.cwndGain, g)
		}
		if len(seq) > 0 && seq[len(seq)-1] == ph {
			return
		}
		if len(seq) > 0 {
			prev := seq[len(seq)-1]
			ok := next[prev] == ph || ph == PhaseProbeRTT || (prev == PhaseProbeRTT && ph == PhaseCruise) ||
				(prev == PhaseStartup && ph == PhaseDrain) || (prev == PhaseDrain && ph == PhaseDown)
			if !ok {
				t.Fatalf("%v: transition %d → %d not in the v3 cycle", now, prev, ph)
			}
		}
		if len(seq) > 0 && seq[len(seq)-1] == PhaseProbeRTT {
			downAt = now // bbr_exit_probe_rtt restarts the cycle clock
		}
		seq = append(seq, ph)
		switch ph {
		case PhaseDown:
			downAt = now
		case PhaseRefill:
			refillAt = now
			if w := now - downAt; w < 2*time.Second || w > 3*time.Second+time.Millisecond {
				t.Errorf("%v: REFILL %v after DOWN, want 2–3 s", now, w)
			}
		case PhaseUp:
			if d := now - refillAt; d < 40*time.Millisecond || d > 90*time.Millisecond {
				t.Errorf("%v: REFILL lasted %v, want one round (40 ms + queue)", now, d)
			}
		}
	}
	p.Run(16 * time.Second)
	if len(seq) < 8 || seq[0] != PhaseStartup || seq[1] != PhaseDrain || seq[2] != PhaseDown {
		t.Fatalf("phase sequence %v, want STARTUP, DRAIN, DOWN, ...", seq)
	}
	cycles := 0
	for i := 1; i < len(seq); i++ {
		if seq[i-1] == PhaseRefill && seq[i] == PhaseUp {
			cycles++
		}
	}
	if cycles < 3 {
		t.Errorf("%d probe cycles in 16 s (%v), want ≥ 3 (one per 2–3 s, PROBE_RTT restarting the wait)", cycles, seq)
	}
}

// TestV2Gains: v2alpha's STARTUP uses 2/ln2 for pacing and cwnd, DOWN 0.75
// and UP 1.25 without v3's cwnd bonus.
func TestV2Gains(t *testing.T) {
	c := newTest("bbr2", 3, nil)
	b := c.(*BBR)
	p := newSynth(c, 50e6, 30*time.Millisecond)
	want := map[int][2]float64{
		PhaseStartup: {v2HighGain, v2HighGain}, PhaseDrain: {1 / v2HighGain, v2HighGain}, PhaseDown: {0.75, 2},
		PhaseCruise: {1, 2}, PhaseRefill: {1, 2}, PhaseUp: {1.25, 2}, PhaseProbeRTT: {1, 1},
	}
	seen := map[int]bool{}
	p.Observe = func(now time.Duration, rs *cc.RateSample) {
		ph := b.phase()
		seen[ph] = true
		if g := want[ph]; math.Abs(b.pacingGain-g[0]) > 1e-9 || math.Abs(b.cwndGain-g[1]) > 1e-9 {
			t.Fatalf("phase %d gains %v/%v, want %v", ph, b.pacingGain, b.cwndGain, g)
		}
	}
	p.Run(8 * time.Second)
	for _, ph := range []int{PhaseStartup, PhaseDrain, PhaseDown, PhaseCruise, PhaseRefill, PhaseUp} {
		if !seen[ph] {
			t.Errorf("phase %d never visited", ph)
		}
	}
}

// TestConvergeV2V3: the bandwidth estimate converges to the bottleneck
// within 5%, on a deep and on a 0.1-BDP buffer.
func TestConvergeV2V3(t *testing.T) {
	for _, name := range []string{"bbr2", "bbr3"} {
		for _, bufBDP := range []float64{1, 0.1} {
			c := newTest(name, 1, nil)
			p := newSynth(c, 100e6, 50*time.Millisecond)
			p.Buffer = int(bufBDP * p.BDPBytes())
			p.Run(10 * time.Second)
			if got := c.(*BBR).bwEst(); math.Abs(got-p.Rate(0))/p.Rate(0) > 0.05 {
				t.Errorf("%s buffer %.1f BDP: bw %.0f B/s, want %.0f ±5%%", name, bufBDP, got, p.Rate(0))
			}
		}
	}
}
