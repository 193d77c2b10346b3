package leocc

import (
	"math"
	"time"

	"github.com/leolab/leolab/cc"
)

// updateMinRTT tracks min_rtt over 20 s and runs PROBE_RTT, which a
// pending reconfiguration also enters; leaving it after 200 ms and a round
// at the low window sets min_rtt to the current sample, the path's RTT
// after the reconfiguration (leocc_update_min_rtt).
func (l *LeoCC) updateMinRTT(now time.Duration, rs *cc.RateSample) {
	expired := now > l.minRTTStamp+minRTTWin
	if rs.RTT > 0 && (l.minRTT == 0 || rs.RTT < l.minRTT || expired) {
		l.minRTT, l.minRTTStamp = rs.RTT, now
	}
	if !l.idleRestart && l.mode == modeCruise && (expired || l.reconfiguring) {
		l.mode = modeProbeRTT
		l.probeArmed = false
		l.saveCwnd()
	}
	l.probeRTTAck = l.mode == modeProbeRTT
	if l.mode == modeProbeRTT {
		l.probeRTT(now, rs)
	}
	if rs.Delivered > 0 {
		l.idleRestart = false
	}
}

// MarkAppLimited keeps PROBE_RTT's low rates, and the first burst after
// it, out of the max-bw filter (cc.AppLimitedMarker; leocc.c
// leocc_update_min_rtt sets tp->app_limited on every ACK in PROBE_RTT, as
// tcp_bbr.c does).
func (l *LeoCC) MarkAppLimited() bool { return l.probeRTTAck }

// probeRTT arms the 200 ms timer once inflight is at the PROBE_RTT window
// and, after a round more, refreshes min_rtt and leaves.
func (l *LeoCC) probeRTT(now time.Duration, rs *cc.RateSample) {
	if !l.probeArmed {
		if rs.Inflight <= l.probeRTTCwnd() {
			l.probeDone = now + probeRTTDur
			l.probeArmed, l.probeRoundEnd = true, false
			l.nextDelivered = rs.TotalDelivered
		}
		return
	}
	if l.roundStart {
		l.probeRoundEnd = true
	}
	if !l.probeRoundEnd {
		return
	}
	if now > l.probeDone {
		// The module stores the sample unconditionally; without one only
		// the stamp moves, so PROBE_RTT is not re-entered at once.
		if rs.RTT > 0 {
			l.minRTT = rs.RTT
		}
		l.minRTTStamp = now
	}
	l.checkProbeRTTDone(now)
}

// checkProbeRTTDone leaves PROBE_RTT once its time is up: the saved cwnd
// returns, and a reconfiguration restarts STARTUP from the bandwidth
// measured after it (leocc_check_probe_rtt_done).
func (l *LeoCC) checkProbeRTTDone(now time.Duration) {
	if !l.probeArmed || now <= l.probeDone {
		return
	}
	l.cwnd = max(l.cwnd, l.priorCwnd)
	l.resetMode(now)
	if l.reconfiguring {
		l.bw.Reset(l.round, l.reconfigBw)
	}
}

// saveCwnd remembers the last good cwnd before recovery or PROBE_RTT
// (leocc_save_cwnd).
func (l *LeoCC) saveCwnd() {
	if l.prevState == caOpen && l.mode != modeProbeRTT {
		l.priorCwnd = l.cwnd
	} else {
		l.priorCwnd = max(l.priorCwnd, l.cwnd)
	}
}

// pacingRate is gain·bw less the 1% margin, bytes/s.
func pacingRate(bw, gain float64) float64 { return bw * gain * (1 - pacingMargin) }

// setPacingRate paces at gain·bw, never lowering the rate before the pipe
// is full (leocc_set_pacing_rate).
func (l *LeoCC) setPacingRate(bw, gain float64) {
	if r := pacingRate(bw, gain); l.fullReached || r > l.pacing {
		l.pacing = r
	}
}

// bdp is gain·bw·min_rtt rounded up to whole segments, bytes; the initial
// window before any RTT sample (leocc_bdp).
func (l *LeoCC) bdp(bw, gain float64) int {
	if l.minRTT <= 0 {
		return initCwndPkts * l.mss
	}
	return int(math.Ceil(bw*l.minRTT.Seconds()*gain/float64(l.mss))) * l.mss
}

// tsoGoal is the pacing burst in segments (leocc_tso_segs_goal).
func (l *LeoCC) tsoGoal() int {
	minSegs := 2
	if l.pacing < minTSORate {
		minSegs = 1
	}
	return min(max(min(int(l.pacing)>>pacingShift, gsoMaxBytes)/l.mss, minSegs), maxTSOSegs)
}

// quantize adds three pacing bursts, rounds up to an even number of
// segments and adds 2 in the UP phase (leocc_quantization_budget).
func (l *LeoCC) quantize(cwnd int) int {
	pkts := (cwnd+l.mss-1)/l.mss + 3*l.tsoGoal()
	pkts = (pkts + 1) &^ 1
	if l.mode == modeCruise && l.cycleIdx == 0 {
		pkts += probeExtraPkts
	}
	return pkts * l.mss
}

// inflight is the BDP at gain with the burst budget (leocc_inflight).
func (l *LeoCC) inflight(bw, gain float64) int { return l.quantize(l.bdp(bw, gain)) }

// inNetAtEDT is what will be in flight when the next burst leaves, with
// the departure time taken as now (leocc_packets_in_net_at_edt).
func (l *LeoCC) inNetAtEDT(inflight int) int {
	if l.pacingGain > 1 {
		inflight += l.tsoGoal() * l.mss
	}
	return inflight
}

// probeRTTCwnd is 0.5·BDP, at least 4 packets (leocc_probe_rtt_cwnd).
func (l *LeoCC) probeRTTCwnd() int {
	return max(cwndMinPkts*l.mss, l.bdp(l.bw.Get(), probeRTTCwndGain))
}

// recoverOrRestore applies loss recovery: losses come off cwnd, the first
// round of recovery conserves packets, the saved cwnd returns when
// recovery ends (leocc_set_cwnd_to_recover_or_restore). It returns the
// window and whether packet conservation set it.
func (l *LeoCC) recoverOrRestore(rs *cc.RateSample, state caState) (int, bool) {
	cwnd, acked := l.cwnd, rs.AckedBytes
	if rs.LostBytes > 0 {
		cwnd = max(cwnd-rs.LostBytes, l.mss)
	}
	switch {
	case state == caRecovery && l.prevState != caRecovery:
		l.conserving = true
		l.nextDelivered = rs.TotalDelivered
		cwnd = rs.Inflight + acked
	case l.prevState != caOpen && state == caOpen:
		cwnd = max(cwnd, l.priorCwnd)
		l.conserving, l.inLoss = false, false
	}
	l.prevState = state
	if l.conserving {
		return max(cwnd, rs.Inflight+acked), true
	}
	return cwnd, false
}

// setCwnd grows cwnd toward cwnd_gain·BDP plus the aggregation and burst
// budgets, slow-start-like before the pipe is full, capped in PROBE_RTT
// (leocc_set_cwnd).
func (l *LeoCC) setCwnd(rs *cc.RateSample, state caState, bw float64) {
	if acked := rs.AckedBytes; acked > 0 {
		cwnd, conserving := l.recoverOrRestore(rs, state)
		if !conserving {
			target := l.bdp(bw, l.cwndGain)
			if l.fullReached {
				target += l.agg.CWnd(bw, 1)
			}
			target = l.quantize(target)
			switch {
			case l.fullReached:
				cwnd = min(cwnd+acked, target)
			case cwnd < target || rs.TotalDelivered < initCwndPkts*int64(l.mss):
				cwnd += acked
			}
			cwnd = max(cwnd, cwndMinPkts*l.mss)
		}
		l.cwnd = cwnd
	}
	if l.mode == modeProbeRTT {
		l.cwnd = min(l.cwnd, l.probeRTTCwnd())
	}
}
