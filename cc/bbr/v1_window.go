package bbr

import (
	"time"

	"github.com/leolab/leolab/cc"
)

// updateMinRTT tracks min_rtt over a 10 s window and runs PROBE_RTT:
// entered when the estimate is 10 s old, left after 200 ms and one round at
// ≤ 4 packets in flight (bbr_update_min_rtt).
func (b *V1) updateMinRTT(now time.Duration, rs *cc.RateSample) {
	expired := now > b.minRTTStamp+b.p.minRTTWin
	if rs.RTT > 0 && (b.minRTT == 0 || rs.RTT <= b.minRTT || expired) {
		b.minRTT = rs.RTT
		b.minRTTStamp = now
	}
	b.enterProbeRTT(expired, b.p.probeRTTDur)
	b.probeRTTAck = b.mode == modeProbeRTT
	if b.mode == modeProbeRTT && b.probeRTTRound(now, rs, cwndMinTargetPkts*b.mss, b.p.probeRTTDur) {
		b.checkProbeRTTDone(now)
	}
	if rs.Delivered > 0 {
		b.idleRestart = false
	}
}

// checkProbeRTTDone leaves PROBE_RTT once its time is up, restoring the
// saved window (bbr_check_probe_rtt_done).
func (b *V1) checkProbeRTTDone(now time.Duration) {
	if !b.exitProbeRTT(now) {
		return
	}
	b.minRTTStamp = now // wait a while until the next PROBE_RTT
	b.resetMode(now)
}

// updateGains sets the gains of the current mode (bbr_update_gains).
func (b *V1) updateGains() {
	switch b.mode {
	case modeStartup:
		b.pacingGain, b.cwndGain = b.p.highGain, b.p.highGain
	case modeDrain:
		b.pacingGain, b.cwndGain = b.p.drainGain, b.p.highGain
	case modeProbeBW:
		b.pacingGain, b.cwndGain = v1PacingGains[b.cycleIdx], b.p.cwndGain
		if b.lt.useBw {
			b.pacingGain = 1
		}
	case modeProbeRTT:
		b.pacingGain, b.cwndGain = 1, 1
	}
}

// recoverOrRestore applies loss recovery to cwnd: losses are deducted,
// the first round of recovery conserves packets, and the saved cwnd comes
// back when recovery ends (bbr_set_cwnd_to_recover_or_restore). It returns
// the window and whether packet conservation decided it.
func (b *V1) recoverOrRestore(rs *cc.RateSample, state caState) (int, bool) {
	cwnd := b.cwnd
	acked := rs.AckedBytes
	if rs.LostBytes > 0 {
		cwnd = max(cwnd-rs.LostBytes, b.mss)
	}
	switch {
	case state == caRecovery && b.prevState != caRecovery:
		b.conserving = true
		b.round.restart(rs.TotalDelivered) // start a round now
		cwnd = rs.Inflight + acked
	case b.prevState != caOpen && state == caOpen:
		cwnd = max(cwnd, b.priorCwnd)
		b.conserving = false
		b.inLoss = false
	}
	b.prevState = state
	if b.conserving {
		return max(cwnd, rs.Inflight+acked), true
	}
	return cwnd, false
}

// setCwnd grows cwnd toward cwnd_gain·BDP plus the aggregation and TSO
// budgets, slow-start-like before the pipe is full (bbr_set_cwnd).
func (b *V1) setCwnd(rs *cc.RateSample, state caState, bw float64) {
	acked := rs.AckedBytes
	if acked > 0 {
		cwnd, conserving := b.recoverOrRestore(rs, state)
		if !conserving {
			target := bdp(bw, b.minRTT, b.cwndGain, b.mss, b.initCwnd)
			if b.fullReached {
				target += b.agg.CWnd(bw, b.p.extraAckedGain)
			}
			target = quantizationV1(target, tsoSegsV1(b.pacing, b.mss), b.mss, b.mode == modeProbeBW && b.cycleIdx == 0)
			switch {
			case b.fullReached:
				cwnd = min(cwnd+acked, target)
			case cwnd < target || rs.TotalDelivered < initCwndPkts*int64(b.mss):
				cwnd += acked
			}
			cwnd = max(cwnd, cwndMinTargetPkts*b.mss)
		}
		b.cwnd = cwnd
	}
	if b.mode == modeProbeRTT {
		b.cwnd = min(b.cwnd, cwndMinTargetPkts*b.mss)
	}
}

// Inspect reports the phase and model: the keys of core.inspect plus
// cycle_idx, max_bw_bps (the max filter, bits/s), lt_use_bw, lt_bw_bps and
// prior_cwnd (bytes).
func (b *V1) Inspect() map[string]float64 {
	m := b.inspect(b.phase(), b.bwEst(), 14)
	m["cycle_idx"] = float64(b.cycleIdx)
	m["max_bw_bps"] = 8 * b.bw.Get()
	m["lt_use_bw"] = cc.Flag(b.lt.useBw)
	m["lt_bw_bps"] = 8 * b.lt.bw
	m["prior_cwnd"] = float64(b.priorCwnd)
	return m
}

// phase maps the mode and cycle index to the Phase* numbers: v1's 1.25
// phase is UP, its 0.75 one DOWN, the six 1.0 ones CRUISE.
func (b *V1) phase() int {
	switch b.cycleIdx {
	case 0:
		return b.mode.phase(PhaseUp)
	case 1:
		return b.mode.phase(PhaseDown)
	}
	return b.mode.phase(PhaseCruise)
}
