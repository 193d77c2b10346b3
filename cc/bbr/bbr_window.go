package bbr

import (
	"math"
	"time"

	"github.com/leolab/leolab/cc"
)

// updateMinRTT tracks probe_rtt_min over 5 s and min_rtt over 10 s and
// runs PROBE_RTT: entered when no RTT below probe_rtt_min was seen for
// 5 s, held at 0.5·BDP for 200 ms and one round (bbr_update_min_rtt).
func (b *BBR) updateMinRTT(now time.Duration, rs *cc.RateSample) {
	probeExpired := now > b.probeMinStamp+b.p.probeRTTWin
	if rs.RTT > 0 && (b.probeMin == 0 || b.newProbeMin(rs.RTT) || probeExpired) {
		b.probeMin, b.probeMinStamp = rs.RTT, now
	}
	minExpired := now > b.minRTTStamp+b.p.minRTTWin
	if b.probeMin > 0 && (b.minRTT == 0 || b.probeMin <= b.minRTT || minExpired) {
		b.minRTT, b.minRTTStamp = b.probeMin, b.probeMinStamp
	}
	if b.enterProbeRTT(probeExpired, b.p.probeRTTDur) {
		b.ackPhase = acksProbeStopping
		b.round.restart(b.delivered)
	}
	b.probeRTTAck = b.mode == modeProbeRTT
	if b.mode == modeProbeRTT && b.probeRTTRound(now, rs, b.probeRTTCwnd(), b.p.probeRTTDur) {
		b.checkProbeRTTDone(now)
	}
	if rs.Delivered > 0 {
		b.idleRestart = false
	}
}

// newProbeMin: v3 refreshes probe_rtt_min only on a strictly lower RTT,
// v2 also on an equal one.
func (b *BBR) newProbeMin(rtt time.Duration) bool {
	if b.p.v3 {
		return rtt < b.probeMin
	}
	return rtt <= b.probeMin
}

// probeRTTCwnd is PROBE_RTT's window: 0.5·BDP, at least 4 packets.
func (b *BBR) probeRTTCwnd() int {
	return max(cwndMinTargetPkts*b.mss, bdp(b.bwEst(), b.minRTT, b.p.probeRTTCwndGain, b.mss, b.initCwnd))
}

// checkProbeRTTDone leaves PROBE_RTT when its time is up
// (bbr_check_probe_rtt_done, bbr_exit_probe_rtt): back to STARTUP if the
// pipe was never filled, else to PROBE_BW CRUISE with a new probe wait.
func (b *BBR) checkProbeRTTDone(now time.Duration) {
	if !b.exitProbeRTT(now) {
		return
	}
	b.probeMinStamp = now // schedule the next PROBE_RTT
	b.resetLowerBounds()
	if !b.fullReached {
		b.mode = modeStartup
		return
	}
	b.mode = modeProbeBW
	b.startProbeDown()
	b.startProbeCruise()
}

// updateGains sets the gains of the current mode and phase (bbr_update_gains).
func (b *BBR) updateGains() {
	switch b.mode {
	case modeStartup:
		b.pacingGain, b.cwndGain = b.p.startupPacing, b.p.startupCwnd
	case modeDrain:
		b.pacingGain, b.cwndGain = b.p.drain, b.p.startupCwnd
	case modeProbeBW:
		b.pacingGain, b.cwndGain = 1, b.p.cwndGain
		switch b.cycleIdx {
		case cycleUp:
			b.pacingGain = b.p.up
			b.cwndGain += b.p.upCwndAdd
		case cycleDown:
			b.pacingGain = b.p.down
		}
	case modeProbeRTT:
		b.pacingGain, b.cwndGain = 1, 1
	}
}

// setCwnd grows cwnd toward cwnd_gain·BDP plus the aggregation and TSO
// budgets (slow-start-like before the pipe is full), and caps it in
// PROBE_RTT (bbr_set_cwnd). v2/v3 have no packet conservation.
func (b *BBR) setCwnd(rs *cc.RateSample, bw float64) {
	if acked := rs.AckedBytes; acked > 0 {
		target := bdp(bw, b.minRTT, b.cwndGain, b.mss, b.initCwnd) + b.agg.CWnd(bw, b.p.extraAckedGain)
		target = quantizationV2(target, b.tsoSegs(), b.mss, b.mode == modeProbeBW && b.cycleIdx == cycleUp)
		cwnd := b.cwnd
		switch {
		case b.fullReached:
			cwnd = min(cwnd+acked, target)
		case cwnd < target || cwnd < 2*b.initCwnd:
			cwnd += acked
		}
		b.cwnd = max(cwnd, cwndMinTargetPkts*b.mss)
	}
	if b.mode == modeProbeRTT {
		b.cwnd = min(b.cwnd, b.probeRTTCwnd())
	}
}

// Inspect reports the phase and model: the keys of core.inspect plus
// bw_hi_bps (max filter, bits/s), ecn_alpha, probe_wait_ms, inflight_hi
// (bytes, once set), and bw_lo_bps and inflight_lo (only while set).
func (b *BBR) Inspect() map[string]float64 {
	m := b.inspect(b.phase(), b.bwEst(), 15)
	m["bw_hi_bps"] = 8 * b.maxBw()
	m["ecn_alpha"] = b.ecnAlpha
	m["probe_wait_ms"] = ms(b.probeWait)
	if !math.IsInf(b.bwLo, 1) {
		m["bw_lo_bps"] = 8 * b.bwLo
	}
	if b.inflightHi != unset {
		m["inflight_hi"] = float64(b.inflightHi)
	}
	if b.inflightLo != unset {
		m["inflight_lo"] = float64(b.inflightLo)
	}
	return m
}

// phase maps the mode and cycle phase to the Phase* numbers.
func (b *BBR) phase() int {
	return b.mode.phase([...]int{cycleUp: PhaseUp, cycleDown: PhaseDown, cycleCruise: PhaseCruise, cycleRefill: PhaseRefill}[b.cycleIdx])
}
