package leocc

import (
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/internal/bbrfilter"
)

// updateModel is leocc_update_model: bandwidth and rounds, aggregation,
// the gain cycle, the full-pipe check, DRAIN, min_rtt and PROBE_RTT, gains.
func (l *LeoCC) updateModel(now time.Duration, rs *cc.RateSample) {
	l.updateBw(rs)
	if rs.AckedBytes > 0 && rs.Delivered >= 0 && rs.Interval > 0 {
		l.agg.Update(now, rs.AckedBytes, l.bw.Get(), l.roundStart, bbrfilter.ExtraAckedWinRounds, l.cwnd, l.mss)
	}
	if l.mode == modeCruise && l.isNextCyclePhase(now, rs) {
		l.advanceCycle(now)
	}
	l.checkFullBw(rs)
	l.checkDrain(now, rs)
	l.updateMinRTT(now, rs)
	l.updateGains()
}

// updateBw counts packet-timed rounds, feeds the per-round maximum to the
// Kalman bandwidth filter (once per round, in PROBE_BW), notes the
// post-reconfiguration bandwidth in PROBE_RTT and updates the max filter
// (leocc_update_bw and the Kalman step of leocc_main).
func (l *LeoCC) updateBw(rs *cc.RateSample) {
	l.roundStart = false
	if rs.Delivered < 0 || rs.Interval <= 0 {
		return
	}
	if rs.PriorDelivered >= l.nextDelivered {
		if l.mode == modeCruise {
			l.kalBw.update(l.roundMaxBw)
		}
		l.nextDelivered = rs.TotalDelivered
		l.round++
		l.roundMaxBw = 0
		l.roundStart = true
		l.conserving = false
	}
	bw := rs.DeliveryRate
	l.roundMaxBw = max(l.roundMaxBw, bw)
	if l.mode == modeProbeRTT && rs.RTT > 0 && l.kalRTT.x > float64(rs.RTT+l.p.deltaThresh) {
		l.reconfigBw = l.latestBw
	}
	if !rs.IsAppLimited || bw >= l.bw.Get() {
		l.bw.Update(bwRounds, l.round, bw)
	}
	l.latestBw = bw
}

// isNextCyclePhase tells whether the current gain phase is over: a 1.0
// phase lasts one min_rtt; UP also waits for inflight to reach gain·BDP or
// a loss; DOWN ends early once inflight is down to the BDP
// (leocc_is_next_cycle_phase).
func (l *LeoCC) isNextCyclePhase(now time.Duration, rs *cc.RateSample) bool {
	full := now-l.cycleStamp > l.minRTT
	if l.pacingGain == 1 {
		return full
	}
	inflight := l.inNetAtEDT(rs.PriorInflight)
	if l.pacingGain > 1 {
		return full && (rs.LostBytes > 0 || inflight >= l.inflight(l.bw.Get(), l.pacingGain))
	}
	return full || inflight <= l.inflight(l.bw.Get(), 1)
}

func (l *LeoCC) advanceCycle(now time.Duration) {
	l.cycleIdx = (l.cycleIdx + 1) % cycleLen
	l.cycleStamp = now
}

// resetProbeBW enters PROBE_BW at a random phase other than DOWN.
func (l *LeoCC) resetProbeBW(now time.Duration) {
	l.mode = modeCruise
	l.cycleIdx = cycleLen - 1 - l.rng.IntN(cycleRand)
	l.advanceCycle(now)
}

// resetMode follows PROBE_RTT: STARTUP when the pipe was never filled or
// a reconfiguration is pending, else PROBE_BW (leocc_reset_mode).
func (l *LeoCC) resetMode(now time.Duration) {
	if l.fullReached && !l.reconfiguring {
		l.resetProbeBW(now)
		return
	}
	l.fullReached, l.fullBw, l.fullBwCnt = false, 0, 0
	l.mode = modeStartup
}

// checkFullBw: STARTUP filled the pipe after 3 non-app-limited rounds
// without 25% growth of the max bw (leocc_check_full_bw_reached).
func (l *LeoCC) checkFullBw(rs *cc.RateSample) {
	if l.fullReached || !l.roundStart || rs.IsAppLimited {
		return
	}
	if b := l.bw.Get(); b >= l.fullBw*fullBwThresh {
		l.fullBw, l.fullBwCnt = b, 0
		return
	}
	l.fullBwCnt++
	l.fullReached = l.fullBwCnt >= fullBwCount
}

// checkDrain: a full pipe ends STARTUP and with it the reconfiguration;
// DRAIN ends once inflight is down to the BDP (leocc_check_drain).
func (l *LeoCC) checkDrain(now time.Duration, rs *cc.RateSample) {
	if l.mode == modeStartup && l.fullReached {
		l.reconfigBw = 0
		l.reconfiguring = false
		l.mode = modeDrain
	}
	if l.mode == modeDrain && l.inNetAtEDT(rs.Inflight) <= l.inflight(l.bw.Get(), 1) {
		l.resetProbeBW(now)
	}
}

// updateGains sets the gains of the current mode (leocc_update_gains).
func (l *LeoCC) updateGains() {
	switch l.mode {
	case modeStartup:
		l.pacingGain, l.cwndGain = highGain, highGain
	case modeDrain:
		l.pacingGain, l.cwndGain = drainGain, highGain
	case modeCruise:
		l.pacingGain, l.cwndGain = 1, cwndGain
		switch l.cycleIdx {
		case 0:
			l.pacingGain = l.upGain
		case 1:
			l.pacingGain = downGain
		}
	case modeProbeRTT:
		l.pacingGain, l.cwndGain = 1, 1
	}
}
