package bbr

import (
	"math"

	"github.com/leolab/leolab/cc"
)

// noteLoss marks the round as lossy and, on its first loss, extends it to
// the data delivered so far: both versions do it per lost skb (v2alpha
// bbr2_skb_marked_lost, v3 bbr_note_loss called from bbr_skb_marked_lost).
func (b *BBR) noteLoss() {
	if !b.lossInRound {
		b.lossRoundDelivered = b.delivered
	}
	b.lossInRound = true
	b.lossInCycle = true
}

// updateLatestDeliverySignals tracks the max rate and volume delivered in
// the latest round trip and marks loss rounds
// (bbr_update_latest_delivery_signals).
func (b *BBR) updateLatestDeliverySignals(rs *cc.RateSample) {
	b.lossRoundStart = false
	if rs.Interval <= 0 || rs.AckedBytes == 0 {
		return
	}
	b.bwLatest = max(b.bwLatest, b.sampleBw)
	b.inflightLatest = max(b.inflightLatest, int(rs.Delivered))
	if rs.PriorDelivered >= b.lossRoundDelivered {
		b.lossRoundDelivered = rs.TotalDelivered
		b.lossRoundStart = true
	}
}

// updateCongestionSignals feeds the max-bw filter and, once per loss
// round, adapts the lower bounds (bbr_update_congestion_signals).
func (b *BBR) updateCongestionSignals(rs *cc.RateSample) {
	if rs.Interval <= 0 || rs.AckedBytes == 0 {
		return
	}
	if !rs.IsAppLimited || b.sampleBw >= b.maxBw() {
		b.bwHi[1] = max(b.bwHi[1], b.sampleBw)
	}
	b.lossInRound = b.lossInRound || rs.LostBytes > 0
	if !b.lossRoundStart {
		return
	}
	b.adaptLowerBounds()
	b.lossInRound, b.ecnInRound = false, false
}

// adaptLowerBounds cuts bw_lo and inflight_lo multiplicatively by beta
// after a lossy round (and inflight_lo by alpha·ecn_factor after an ECN
// round), never below what the latest round delivered, while not probing
// (bbr_adapt_lower_bounds).
func (b *BBR) adaptLowerBounds() {
	if b.probingBandwidth() {
		return
	}
	ecnInflightLo := unset
	if b.ecnInRound && b.p.ecn {
		b.initLowerBounds(false)
		ecnInflightLo = int(float64(b.inflightLo) * b.ecnCut())
	}
	if b.lossInRound {
		b.initLowerBounds(true)
		cut := 1 - b.p.beta
		b.bwLo = max(b.bwLatest, b.bwLo*cut)
		b.inflightLo = max(b.inflightLatest, int(float64(b.inflightLo)*cut))
	}
	b.inflightLo = min(b.inflightLo, ecnInflightLo)
	if !math.IsInf(b.bwLo, 1) {
		b.bwLo = max(b.bwLo, 1)
	}
}

// initLowerBounds starts the lower bounds from the current estimates.
func (b *BBR) initLowerBounds(initBw bool) {
	if initBw && math.IsInf(b.bwLo, 1) {
		b.bwLo = b.maxBw()
	}
	if b.inflightLo == unset {
		b.inflightLo = b.cwnd
	}
}

// resetLowerBounds lifts the short-term bounds before probing.
func (b *BBR) resetLowerBounds() {
	b.bwLo = math.Inf(1)
	b.inflightLo = unset
}

// resetCongestionSignals clears per-round and per-cycle signals after
// probing (bbr_reset_congestion_signals).
func (b *BBR) resetCongestionSignals() {
	b.lossInRound, b.ecnInRound = false, false
	b.lossInCycle, b.ecnInCycle = false, false
	b.bwLatest, b.inflightLatest = 0, 0
}

// ecnCut is 1 − alpha·ecn_factor (bbr_ecn_cut).
func (b *BBR) ecnCut() float64 { return 1 - b.ecnAlpha*b.p.ecnFactor }

// inflightTooHigh: the sample's loss rate exceeds loss_thresh of what was
// in flight when the acked segment was sent, or its CE rate exceeds
// ecn_thresh (bbr_is_inflight_too_high). The CE rate is measured over the
// current round, the transport not tracking CE per sample.
func (b *BBR) inflightTooHigh(rs *cc.RateSample) bool {
	if rs.Lost > 0 && rs.TxInFlight > 0 && float64(rs.Lost) > float64(rs.TxInFlight)*b.p.lossThresh {
		return true
	}
	delivered := rs.TotalDelivered - b.roundBase
	return b.ecnEligible && b.roundCE > 0 && delivered > 0 && float64(b.roundCE) > float64(delivered)*b.p.ecnThresh
}

// handleInflightTooHigh cuts inflight_hi to max(tx_in_flight,
// (1−beta)·target inflight) once per probe and stops probing
// (bbr_handle_inflight_too_high).
func (b *BBR) handleInflightTooHigh(rs *cc.RateSample) {
	b.prevProbeTooHigh = true
	b.bwProbeSamples = false // react once per probe
	if !rs.IsAppLimited {
		b.inflightHi = max(rs.TxInFlight, int(float64(b.targetInflight())*(1-b.p.beta)))
	}
	if b.mode == modeProbeBW && b.cycleIdx == cycleUp {
		b.startProbeDown()
	}
}

// adaptUpperBounds follows the ACKs of bandwidth probes: it advances the
// bw_hi window at the end of a probe's feedback, cuts inflight_hi when
// probing lost too much, and raises it when a higher level proved safe
// (bbr_adapt_upper_bounds). It returns true when it changed the phase.
func (b *BBR) adaptUpperBounds(rs *cc.RateSample) bool {
	if b.ackPhase == acksProbeStarting && b.round.start {
		b.ackPhase = acksProbeFeedback
	}
	if b.ackPhase == acksProbeStopping && b.round.start {
		b.bwProbeSamples = false
		b.ackPhase = acksInit
		if b.mode == modeProbeBW && !rs.IsAppLimited && b.bwHi[1] > 0 {
			b.bwHi[0], b.bwHi[1] = b.bwHi[1], 0 // bbr_advance_max_bw_filter
		}
		if b.mode == modeProbeBW && b.stoppedRisky && !b.prevProbeTooHigh {
			b.startProbeRefill(0)
			return true
		}
	}
	if b.inflightTooHigh(rs) {
		if b.bwProbeSamples {
			b.handleInflightTooHigh(rs)
		}
		return false
	}
	if b.inflightHi == unset {
		return false
	}
	b.inflightHi = max(b.inflightHi, rs.TxInFlight)
	if b.mode == modeProbeBW && b.cycleIdx == cycleUp {
		b.probeInflightHiUpward(rs)
	}
	return false
}

// probeInflightHiUpward grows inflight_hi while UP is cwnd-limited at it,
// doubling the growth every round (bbr_probe_inflight_hi_upward).
func (b *BBR) probeInflightHiUpward(rs *cc.RateSample) {
	if !b.cwndLimited() || b.cwnd < b.inflightHi {
		if !b.p.v3 {
			b.probeUpAcks = 0 // v2: don't accumulate unused credit
		}
		return
	}
	b.probeUpAcks += rs.AckedBytes
	if step := b.probeUpCnt * b.mss; b.probeUpCnt != unset && b.probeUpAcks >= step {
		delta := b.probeUpAcks / step
		b.probeUpAcks -= delta * step
		b.inflightHi += delta * b.mss
	}
	if b.round.start {
		b.raiseInflightHiSlope()
	}
}

// raiseInflightHiSlope doubles the per-round inflight_hi growth
// (bbr_raise_inflight_hi_slope): 2^rounds packets per round.
func (b *BBR) raiseInflightHiSlope() {
	growth := 1 << b.probeUpRounds
	b.probeUpRounds = min(b.probeUpRounds+1, 30)
	b.probeUpCnt = max(b.cwnd/b.mss/growth, 1)
}

// inflightWithHeadroom leaves 15% of inflight_hi unused for other flows
// (bbr_inflight_with_headroom).
func (b *BBR) inflightWithHeadroom() int {
	if b.inflightHi == unset {
		return unset
	}
	headroom := max(int(float64(b.inflightHi/b.mss)*b.p.headroom), 1) * b.mss
	return max(b.inflightHi-headroom, cwndMinTargetPkts*b.mss)
}

// boundCwnd caps cwnd by inflight_hi while probing, by inflight_hi less
// headroom while cruising or in PROBE_RTT, and always by inflight_lo
// (bbr_bound_cwnd_for_inflight_model).
func (b *BBR) boundCwnd() {
	limit := unset
	switch {
	case b.mode == modeProbeBW && b.cycleIdx != cycleCruise:
		limit = b.inflightHi
	case b.mode == modeProbeRTT || b.mode == modeProbeBW:
		limit = b.inflightWithHeadroom()
	}
	limit = max(min(limit, b.inflightLo), cwndMinTargetPkts*b.mss)
	b.cwnd = min(b.cwnd, limit)
}

// updateECNAlpha updates the EWMA of the CE-marked fraction once per round
// and checks for a STARTUP exit on high ECN (bbr_update_ecn_alpha).
func (b *BBR) updateECNAlpha() {
	if !b.ecnEligible && b.p.ecn && b.minRTT > 0 && b.minRTT <= b.p.ecnMaxRTT {
		b.ecnEligible = true
	}
	if !b.ecnEligible {
		return
	}
	delivered := b.delivered - b.alphaDelivered
	if delivered <= 0 {
		return
	}
	ratio := float64(b.totalCE-b.alphaCE) / float64(delivered)
	g := b.p.ecnAlphaGain
	b.ecnAlpha = min((1-g)*b.ecnAlpha+g*ratio, 1)
	b.alphaDelivered, b.alphaCE = b.delivered, b.totalCE
	if b.fullReached {
		return
	}
	if ratio >= b.p.ecnThresh {
		b.startupECNRounds++
	} else {
		b.startupECNRounds = 0
	}
	if b.startupECNRounds >= b.p.fullECNCnt {
		b.queueTooHighInStartup()
	}
}
