package bbr

import (
	"time"

	"github.com/leolab/leolab/cc"
)

// isNextCyclePhase tells whether the current gain phase is over
// (bbr_is_next_cycle_phase): a 1.0 phase lasts one min_rtt; the 1.25 phase
// also waits for inflight to reach 1.25·BDP (or a loss); the 0.75 phase
// ends early once inflight has fallen to the BDP.
func (b *V1) isNextCyclePhase(now time.Duration, rs *cc.RateSample) bool {
	fullLength := now-b.cycleStamp > b.minRTT
	if b.pacingGain == 1 {
		return fullLength
	}
	inflight := b.inNetAtEDT(rs.PriorInflight)
	bw := b.bw.Get()
	if b.pacingGain > 1 {
		return fullLength && (rs.LostBytes > 0 || inflight >= b.inflight(bw, b.pacingGain))
	}
	return fullLength || inflight <= b.inflight(bw, 1)
}

func (b *V1) advanceCyclePhase(now time.Duration) {
	b.cycleIdx = (b.cycleIdx + 1) % v1CycleLen
	b.cycleStamp = now
}

// updateCyclePhase advances the PROBE_BW gain cycle (bbr_update_cycle_phase).
func (b *V1) updateCyclePhase(now time.Duration, rs *cc.RateSample) {
	if b.mode == modeProbeBW && b.isNextCyclePhase(now, rs) {
		b.advanceCyclePhase(now)
	}
}

// resetProbeBW enters PROBE_BW at a random phase other than 0.75
// (bbr_reset_probe_bw_mode).
func (b *V1) resetProbeBW(now time.Duration) {
	b.mode = modeProbeBW
	b.cycleIdx = v1CycleLen - 1 - b.rng.IntN(v1CycleRand)
	b.advanceCyclePhase(now)
}

// resetMode returns to STARTUP, or PROBE_BW once the pipe was filled.
func (b *V1) resetMode(now time.Duration) {
	if !b.fullReached {
		b.mode = modeStartup
		return
	}
	b.resetProbeBW(now)
}

// checkDrain moves STARTUP→DRAIN once the pipe is full and DRAIN→PROBE_BW
// once inflight is down to the BDP (bbr_check_drain).
func (b *V1) checkDrain(now time.Duration, rs *cc.RateSample) {
	if b.mode == modeStartup && b.fullReached {
		b.mode = modeDrain
	}
	if b.mode == modeDrain && b.inNetAtEDT(rs.Inflight) <= b.inflight(b.bw.Get(), 1) {
		b.resetProbeBW(now)
	}
}
