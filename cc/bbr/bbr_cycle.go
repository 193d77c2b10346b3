package bbr

import (
	"time"

	"github.com/leolab/leolab/cc"
)

// resetFullBw restarts the full-pipe estimator (bbr_reset_full_bw).
func (b *BBR) resetFullBw() {
	b.fullBw, b.fullBwCnt, b.fullBwNow = 0, 0, false
}

// checkFullBw estimates a bandwidth plateau: 3 rounds without 25% growth.
// v3 compares every sample and keeps running in PROBE_BW UP (full_bw_now);
// v2 compares the max filter at round starts during STARTUP only.
func (b *BBR) checkFullBw(rs *cc.RateSample) {
	if !b.p.v3 {
		b.checkFullBwRound(rs, b.maxBw())
		return
	}
	if b.fullBwNow || rs.IsAppLimited {
		return
	}
	if b.sampleBw >= b.fullBw*fullBwThresh {
		b.resetFullBw()
		b.fullBw = b.sampleBw
		return
	}
	if !b.round.start {
		return
	}
	b.fullBwCnt++
	b.fullBwNow = b.fullBwCnt >= fullBwCount
	b.fullReached = b.fullReached || b.fullBwNow
}

// queueTooHighInStartup ends STARTUP on excessive loss or ECN, setting
// inflight_hi to the estimated BDP (v3: or the latest delivered volume if
// larger) (bbr_handle_queue_too_high_in_startup).
func (b *BBR) queueTooHighInStartup() {
	b.fullReached = true
	b.inflightHi = b.inflight(b.maxBw(), 1)
	if b.p.v3 {
		b.inflightHi = max(b.inflightHi, b.inflightLatest)
	}
}

// checkLossTooHighInStartup ends STARTUP at the end of a recovery round
// with ≥ full_loss_cnt loss-marking ACKs and loss above loss_thresh
// (bbr_check_loss_too_high_in_startup).
func (b *BBR) checkLossTooHighInStartup(rs *cc.RateSample, state caState) {
	if b.fullReached {
		return
	}
	if rs.LostBytes > 0 && b.lossEvents < 15 {
		b.lossEvents++
	}
	if b.lossRoundStart && state == caRecovery && b.lossEvents >= b.p.fullLossCnt && b.inflightTooHigh(rs) {
		b.queueTooHighInStartup()
		return
	}
	if b.lossRoundStart {
		b.lossEvents = 0
	}
}

// checkDrain: STARTUP→DRAIN once the pipe is full, DRAIN→PROBE_BW (DOWN)
// once inflight is down to the BDP (bbr_check_drain).
func (b *BBR) checkDrain(now time.Duration, rs *cc.RateSample) {
	if b.mode == modeStartup && b.fullReached {
		b.mode = modeDrain
		b.resetCongestionSignals()
	}
	if b.mode == modeDrain && b.inNetAtEDT(rs.Inflight) <= b.inflight(b.maxBw(), 1) {
		b.mode = modeProbeBW
		b.startProbeDown()
	}
}

// updateCyclePhase is the PROBE_BW state machine: CRUISE until it is time
// to probe, REFILL for one round, UP until the probe is done, DOWN until
// the queue is drained (bbr_update_cycle_phase).
func (b *BBR) updateCyclePhase(now time.Duration, rs *cc.RateSample) {
	if !b.fullReached {
		return
	}
	if b.adaptUpperBounds(rs) || b.mode != modeProbeBW {
		return
	}
	inflight := b.inNetAtEDT(rs.PriorInflight)
	bw := b.maxBw()
	switch b.cycleIdx {
	case cycleCruise:
		b.checkTimeToProbe(now)
	case cycleRefill:
		if b.round.start {
			b.bwProbeSamples = true
			b.startProbeUp(now)
		}
	case cycleUp:
		if b.probeUpDone(now, inflight, bw) {
			b.prevProbeTooHigh = false
			b.startProbeDown()
		}
	case cycleDown:
		if b.checkTimeToProbe(now) {
			return
		}
		if inflight <= b.inflightWithHeadroom() && inflight <= b.inflight(bw, 1) {
			b.startProbeCruise() // bbr_check_time_to_cruise
		}
	}
}

// probeUpDone tells whether UP should end: inflight reached the
// inflight_hi that was too high last time; or (v3) the bandwidth
// plateaued while not limited by inflight_hi; or (v2) a min_rtt has passed
// with inflight ≥ 1.25·BDP.
func (b *BBR) probeUpDone(now time.Duration, inflight int, bw float64) bool {
	if b.prevProbeTooHigh && inflight >= b.inflightHi {
		b.stoppedRisky = true
		return true
	}
	if !b.p.v3 {
		return now > b.cycleStamp+b.minRTT && inflight >= b.inflight(bw, b.p.probePifGain)
	}
	if b.cwndLimited() && b.cwnd >= b.inflightHi {
		b.resetFullBw() // inflight_hi limits growth, not the path
		b.fullBw = b.sampleBw
		return false
	}
	return b.fullBwNow
}

// checkTimeToProbe starts REFILL once the randomized 2–3 s wait or the
// Reno-coexistence round count has elapsed (bbr_check_time_to_probe_bw).
func (b *BBR) checkTimeToProbe(now time.Duration) bool {
	rounds := min(b.p.probeMaxRounds, b.targetInflight()/b.mss)
	if now > b.cycleStamp+b.probeWait || b.roundsSinceProbe >= rounds {
		b.startProbeRefill(0)
		return true
	}
	return false
}

// startProbeRefill sends at the estimate for a round to fill the pipe
// before probing (bbr_start_bw_probe_refill).
func (b *BBR) startProbeRefill(upRounds int) {
	b.resetLowerBounds()
	b.probeUpRounds = upRounds
	b.probeUpAcks = 0
	b.stoppedRisky = false
	b.ackPhase = acksRefilling
	b.round.restart(b.delivered)
	b.cycleIdx = cycleRefill
}

// startProbeUp probes with pacing gain 1.25 (bbr_start_bw_probe_up).
func (b *BBR) startProbeUp(now time.Duration) {
	b.ackPhase = acksProbeStarting
	b.round.restart(b.delivered)
	b.cycleStamp = now
	if b.p.v3 {
		b.resetFullBw()
		b.fullBw = b.sampleBw
	}
	b.cycleIdx = cycleUp
	b.raiseInflightHiSlope()
}

// startProbeDown starts a cycle: drain, then wait a random 2–3 s (or a
// Reno-scaled number of rounds) before the next probe
// (bbr_start_bw_probe_down).
func (b *BBR) startProbeDown() {
	b.resetCongestionSignals()
	b.probeUpCnt = unset
	b.roundsSinceProbe = b.rng.IntN(b.p.probeRandRounds)
	b.probeWait = b.p.probeWaitBase
	if b.p.probeWaitRand > 0 {
		b.probeWait += time.Duration(b.rng.Int64N(int64(b.p.probeWaitRand)))
	}
	b.cycleStamp = b.now
	b.ackPhase = acksProbeStopping
	b.round.restart(b.delivered)
	b.cycleIdx = cycleDown
}

// startProbeCruise holds at the estimate with headroom
// (bbr_start_bw_probe_cruise).
func (b *BBR) startProbeCruise() {
	if b.inflightLo != unset {
		b.inflightLo = min(b.inflightLo, b.inflightHi)
	}
	b.cycleIdx = cycleCruise
}
