package bbr

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

// TestV1PhaseSequence: STARTUP (2.885/2.885) → DRAIN (1/2.885, 2.885) →
// PROBE_BW with gains from the cycle, never starting at the 0.75 phase,
// with STARTUP lasting about log2(BDP/initcwnd) + 3 rounds.
func TestV1PhaseSequence(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		c := newTest("bbr1", seed, nil)
		b := c.(*V1)
		p := newSynth(c, 100e6, 40*time.Millisecond)
		var seq []mode
		var exitRound int64 = -1
		firstCycle := -1
		p.Observe = func(now time.Duration, rs *cc.RateSample) {
			if len(seq) == 0 || seq[len(seq)-1] != b.mode {
				seq = append(seq, b.mode)
				if b.mode == modeDrain {
					exitRound = b.round.count
				}
				if b.mode == modeProbeBW && firstCycle < 0 {
					firstCycle = b.cycleIdx
				}
			}
			checkV1Gains(t, b)
		}
		p.Run(3 * time.Second)
		if len(seq) < 3 || seq[0] != modeStartup || seq[1] != modeDrain || seq[2] != modeProbeBW {
			t.Fatalf("seed %d: mode sequence %v, want STARTUP, DRAIN, PROBE_BW", seed, seq)
		}
		// Cycle index before the first advance is 7−U{0..6} = 1..7, so the
		// first phase is one of 2..7 or 0: never 1 (the 0.75 phase).
		if firstCycle == 1 {
			t.Errorf("seed %d: PROBE_BW started in the 0.75 phase", seed)
		}
		growth := math.Ceil(math.Log2(p.BDPBytes() / float64(10*1448)))
		if lo, hi := int64(growth), int64(growth)+fullBwCount+3; exitRound < lo || exitRound > hi {
			t.Errorf("seed %d: STARTUP ended at round %d, want %d..%d", seed, exitRound, lo, hi)
		}
	}
}

// checkV1Gains asserts the gains belong to the current mode.
func checkV1Gains(t *testing.T, b *V1) {
	t.Helper()
	want := map[mode][2]float64{
		modeStartup: {2.885, 2.885}, modeDrain: {1 / 2.885, 2.885}, modeProbeRTT: {1, 1},
	}
	if b.mode == modeProbeBW {
		if b.pacingGain != v1PacingGains[b.cycleIdx] || b.cwndGain != 2 {
			t.Fatalf("PROBE_BW phase %d gains %v/%v", b.cycleIdx, b.pacingGain, b.cwndGain)
		}
		return
	}
	w := want[b.mode]
	if math.Abs(b.pacingGain-w[0]) > 1e-3 || math.Abs(b.cwndGain-w[1]) > 1e-3 {
		t.Fatalf("mode %d gains %v/%v, want %v", b.mode, b.pacingGain, b.cwndGain, w)
	}
}
