package bbr

import (
	"math"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/internal/bbrfilter"
)

// BBRv1 constants (Linux net/ipv4/tcp_bbr.c, mainline since 4.9).
const (
	// v1HighGain = 2/ln 2 ≈ 2.885: the smallest gain whose pacing rate
	// doubles every round like slow start (bbr_high_gain; Linux's fixed
	// point rounds it to 739/256 = 2.887).
	v1HighGain = 2 / math.Ln2
	// v1CwndGain tolerates delayed and stretched ACKs (bbr_cwnd_gain).
	v1CwndGain = 2.0
	// v1CycleLen phases in the PROBE_BW gain cycle (CYCLE_LEN).
	v1CycleLen = 8
	// v1CycleRand: the first phase is drawn among the 7 phases other than
	// the 0.75 one (bbr_cycle_rand).
	v1CycleRand = 7
	// v1BwRounds: the max-bw filter spans CYCLE_LEN+2 = 10 rounds (bbr_bw_rtts).
	v1BwRounds = v1CycleLen + 2
	// v1MinRTTWin: min_rtt filter window (bbr_min_rtt_win_sec = 10 s).
	v1MinRTTWin = 10 * time.Second
	// probeRTTDuration: time spent at the reduced window in PROBE_RTT
	// (bbr_probe_rtt_mode_ms = 200, all versions).
	probeRTTDuration = 200 * time.Millisecond
	// fullBwThresh and fullBwCount: STARTUP ends after 3 rounds without
	// 25% bandwidth growth (bbr_full_bw_thresh, bbr_full_bw_cnt).
	fullBwThresh = 1.25
	fullBwCount  = 3
	// initCwndPkts: Linux TCP_INIT_CWND (RFC 6928), used by v1's STARTUP
	// to keep growing until 10 packets were delivered.
	initCwndPkts = 10
)

// v1PacingGains is the PROBE_BW gain cycle (bbr_pacing_gain).
var v1PacingGains = [v1CycleLen]float64{1.25, 0.75, 1, 1, 1, 1, 1, 1}

// V1 is BBRv1 as in Linux net/ipv4/tcp_bbr.c.
type V1 struct {
	core
	p          v1Params
	bw         bbrfilter.MaxFilter // bytes/s over rounds
	conserving bool                // packet conservation (first round of recovery)
	lt         ltSampler
}

var _ cc.Inspector = (*V1)(nil)

// v1Params are BBRv1's knobs (see Info.Params in register.go).
type v1Params struct {
	highGain, drainGain, cwndGain float64
	bwRounds                      int64
	minRTTWin, probeRTTDur        time.Duration
	ltBw                          bool
	extraAckedGain                float64
}

// newV1 builds a BBRv1 controller.
func newV1(cfg cc.Config) (cc.Controller, error) {
	p := v1Params{
		highGain:       cfg.Param("high_gain", v1HighGain),
		drainGain:      cfg.Param("drain_gain", 1/v1HighGain),
		cwndGain:       cfg.Param("cwnd_gain", v1CwndGain),
		bwRounds:       int64(cfg.Param("bw_rounds", v1BwRounds)),
		minRTTWin:      secs(cfg.Param("min_rtt_win_s", v1MinRTTWin.Seconds())),
		probeRTTDur:    secs(cfg.Param("probe_rtt_s", probeRTTDuration.Seconds())),
		ltBw:           cfg.Param("lt_bw", 1) != 0,
		extraAckedGain: cfg.Param("extra_acked_gain", 1),
	}
	if err := checkGains("bbr1", p.highGain, p.drainGain, p.cwndGain); err != nil {
		return nil, err
	}
	if p.bwRounds < 1 || p.minRTTWin <= 0 || p.probeRTTDur < 0 || p.extraAckedGain < 0 {
		return nil, errBadParams("bbr1")
	}
	b := &V1{core: newCore(cfg, p.highGain), p: p}
	b.updateGains()
	return b, nil
}

// start stamps the filters with the flow's first event time (bbr_init).
func (b *V1) start(now time.Duration) {
	if b.begin(now) {
		b.lt.reset(now, 0, 0)
	}
}

// OnSend notes idle restarts (CA_EVENT_TX_START while app-limited).
func (b *V1) OnSend(now time.Duration, s cc.SentInfo) {
	b.start(now)
	b.noteSend(now, s, b)
}

// OnAck runs BBR's per-ACK model update and control (bbr_main).
func (b *V1) OnAck(now time.Duration, rs *cc.RateSample) {
	b.start(now)
	state := b.ackState(rs)
	b.noteAck(rs, b.p.highGain)
	b.updateBw(now, rs)
	if rs.AckedBytes > 0 && rs.Delivered >= 0 && rs.Interval > 0 {
		b.agg.Update(now, rs.AckedBytes, b.bwEst(), b.round.start, bbrfilter.ExtraAckedWinRounds, b.cwnd, b.mss)
	}
	b.updateCyclePhase(now, rs)
	b.checkFullBwRound(rs, b.bw.Get())
	b.checkDrain(now, rs)
	b.updateMinRTT(now, rs)
	b.updateGains()
	bw := b.bwEst()
	b.setPacingRate(bw, b.pacingGain)
	b.setCwnd(rs, state, bw)
}

// OnRTO enters TCP_CA_Loss: cwnd collapses to the minimum and the
// full-pipe estimator restarts (tcp_enter_loss + bbr_set_state).
func (b *V1) OnRTO(now time.Duration) {
	b.start(now)
	b.enterLoss()
	b.fullBw = 0
	b.round.start = true // treat the RTO as the end of a round
	b.ltSample(now, true, false)
	b.cwnd = cc.MinCWnd(b.mss)
}

// bwEst is the bandwidth the model uses: the policed rate when one was
// detected, else the windowed max (bbr_bw).
func (b *V1) bwEst() float64 {
	if b.lt.useBw {
		return b.lt.bw
	}
	return b.bw.Get()
}

// updateBw counts rounds, samples the policer detector and feeds the
// max-bw filter (bbr_update_bw).
func (b *V1) updateBw(now time.Duration, rs *cc.RateSample) {
	b.round.start = false
	if rs.Delivered < 0 || rs.Interval <= 0 {
		return
	}
	if b.round.update(rs) {
		b.conserving = false
	}
	b.ltSample(now, rs.LostBytes > 0, rs.IsAppLimited)
	bw := rs.DeliveryRate
	if !rs.IsAppLimited || bw >= b.bw.Get() {
		b.bw.Update(b.p.bwRounds, b.round.count, bw)
	}
}

// ltSample runs the policer detector and applies its verdict.
func (b *V1) ltSample(now time.Duration, losses, appLimited bool) {
	if !b.p.ltBw {
		return
	}
	ev := b.lt.sample(now, losses, appLimited, b.round.start, b.mode == modeProbeBW, b.delivered, b.lost)
	switch ev {
	case ltPoliced:
		b.pacingGain = 1 // try to avoid drops
	case ltExpired:
		b.resetProbeBW(now)
	}
}

// inflight is the BDP at gain plus the TSO budget (bbr_inflight).
func (b *V1) inflight(bw, gain float64) int {
	probing := b.mode == modeProbeBW && b.cycleIdx == 0
	return quantizationV1(bdp(bw, b.minRTT, gain, b.mss, b.initCwnd), tsoSegsV1(b.pacing, b.mss), b.mss, probing)
}

// inNetAtEDT estimates what is in the network when the next segment
// leaves (bbr_packets_in_net_at_edt, with the departure time taken as now).
func (b *V1) inNetAtEDT(inflight int) int {
	if b.pacingGain > 1 {
		inflight += tsoSegsV1(b.pacing, b.mss) * b.mss
	}
	return inflight
}
