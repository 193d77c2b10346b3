package bbr

import (
	"math"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/internal/bbrfilter"
)

// PROBE_BW cycle phases of v2/v3 (Linux enum bbr_pacing_gain_phase).
const (
	cycleUp     = 0 // push inflight up to probe for bandwidth
	cycleDown   = 1 // drain the queue the probe built
	cycleCruise = 2 // use the pipe with headroom
	cycleRefill = 3 // refill the pipe to 100% before probing
)

// ackPhase says how the incoming ACKs relate to bandwidth probing (Linux
// enum bbr_ack_phase).
type ackPhase uint8

const (
	acksInit          ackPhase = iota // not probing
	acksRefilling                     // sending at the estimate to fill the pipe
	acksProbeStarting                 // inflight rising to probe
	acksProbeFeedback                 // ACKs of probing data
	acksProbeStopping                 // stopped probing, still getting its ACKs
)

// unset marks an absent inflight bound (Linux uses ~0U).
const unset = math.MaxInt

// variant holds the constants that distinguish v2alpha from v3; each is a
// parameter of the registered algorithm.
type variant struct {
	name                                string
	v3                                  bool
	startupPacing, startupCwnd, drain   float64
	up, down, cwndGain, upCwndAdd       float64
	beta, lossThresh, headroom          float64
	probeRTTWin, minRTTWin, probeRTTDur time.Duration
	probeRTTCwndGain                    float64
	probeWaitBase, probeWaitRand        time.Duration
	probeMaxRounds, probeRandRounds     int
	fullLossCnt                         int
	ecn                                 bool
	ecnThresh, ecnFactor, ecnAlphaGain  float64
	ecnMaxRTT                           time.Duration
	fullECNCnt                          int
	extraAckedGain, probePifGain        float64
}

// BBR is BBRv2 (google/bbr v2alpha tcp_bbr2.c) or BBRv3 (google/bbr v3
// tcp_bbr.c): v3 grew out of v2 and keeps its state machine, so one
// implementation serves both and the variant switches the differences
// listed in the package documentation.
type BBR struct {
	core
	p        variant
	sampleBw float64 // this ACK's delivery rate (bbr_context.sample_bw)

	bwHi           [2]float64 // max bw of the last two PROBE_BW cycles
	bwLo           float64    // +Inf when unset
	bwLatest       float64
	inflightHi     int
	inflightLo     int
	inflightLatest int

	fullBwNow bool

	probeMin, probeMinStamp time.Duration

	probeWait        time.Duration
	roundsSinceProbe int
	ackPhase         ackPhase
	bwProbeSamples   bool
	prevProbeTooHigh bool
	stoppedRisky     bool
	probeUpRounds    int
	probeUpCnt       int // packets acked per 1-packet inflight_hi increase
	probeUpAcks      int // bytes acked toward the next increase

	lossRoundDelivered int64
	lossRoundStart     bool
	lossInRound        bool
	ecnInRound         bool
	lossInCycle        bool
	ecnInCycle         bool
	lossEvents         int

	ecnEligible                 bool
	ecnAlpha                    float64
	alphaDelivered, alphaCE     int64
	startupECNRounds            int
	totalCE, roundCE, roundBase int64

	limitedNow, limitedPrev bool          // cwnd-limited this/previous round
	now                     time.Duration // time of the event being processed

	pol *policyState // learned ProbeBW gains (NewV3WithPolicy); nil: stock
}

var _ cc.Inspector = (*BBR)(nil)

// newVariant builds a v2 or v3 controller, reading Params over the
// variant's defaults.
func newVariant(v variant, cfg cc.Config) (cc.Controller, error) {
	v = v.withParams(cfg)
	if err := checkGains(v.name, v.startupPacing, v.startupCwnd, v.drain, v.up, v.down, v.cwndGain); err != nil {
		return nil, err
	}
	if v.beta < 0 || v.beta >= 1 || v.lossThresh <= 0 || v.lossThresh >= 1 || v.headroom < 0 || v.headroom >= 1 ||
		v.probeRTTWin <= 0 || v.minRTTWin < v.probeRTTWin || v.probeRTTDur < 0 || v.probeWaitBase < 0 || v.probeWaitRand < 0 {
		return nil, errBadParams(v.name)
	}
	b := &BBR{core: newCore(cfg, v.startupPacing), p: v}
	b.bwLo = math.Inf(1)
	b.inflightHi, b.inflightLo = unset, unset
	b.probeUpCnt = unset
	b.ecnAlpha = 1 // bbr_ecn_alpha_init
	b.lossRoundDelivered = 1
	b.updateGains()
	return b, nil
}

// withParams overrides the variant's defaults with cfg.Params.
func (v variant) withParams(cfg cc.Config) variant {
	f := cfg.Param
	v.startupPacing = f("startup_pacing_gain", v.startupPacing)
	v.startupCwnd = f("startup_cwnd_gain", v.startupCwnd)
	v.drain = f("drain_gain", v.drain)
	v.up, v.down = f("up_gain", v.up), f("down_gain", v.down)
	v.cwndGain, v.upCwndAdd = f("cwnd_gain", v.cwndGain), f("up_cwnd_gain_add", v.upCwndAdd)
	v.beta, v.lossThresh = f("beta", v.beta), f("loss_thresh", v.lossThresh)
	v.headroom = f("inflight_headroom", v.headroom)
	v.probeRTTWin = secs(f("probe_rtt_interval_s", v.probeRTTWin.Seconds()))
	v.minRTTWin = secs(f("min_rtt_win_s", v.minRTTWin.Seconds()))
	v.probeRTTDur = secs(f("probe_rtt_s", v.probeRTTDur.Seconds()))
	v.probeRTTCwndGain = f("probe_rtt_cwnd_gain", v.probeRTTCwndGain)
	v.probeWaitBase = secs(f("probe_wait_base_s", v.probeWaitBase.Seconds()))
	v.probeWaitRand = secs(f("probe_wait_rand_s", v.probeWaitRand.Seconds()))
	v.ecn = f("ecn", 0) != 0
	v.ecnThresh = f("ecn_thresh", v.ecnThresh)
	v.extraAckedGain = f("extra_acked_gain", v.extraAckedGain)
	return v
}

// params lists the registered knobs with the variant's defaults.
func (v variant) params() map[string]float64 {
	return map[string]float64{
		"startup_pacing_gain": v.startupPacing, "startup_cwnd_gain": v.startupCwnd, "drain_gain": v.drain,
		"up_gain": v.up, "down_gain": v.down, "cwnd_gain": v.cwndGain, "up_cwnd_gain_add": v.upCwndAdd,
		"beta": v.beta, "loss_thresh": v.lossThresh, "inflight_headroom": v.headroom,
		"probe_rtt_interval_s": v.probeRTTWin.Seconds(), "min_rtt_win_s": v.minRTTWin.Seconds(),
		"probe_rtt_s": v.probeRTTDur.Seconds(), "probe_rtt_cwnd_gain": v.probeRTTCwndGain,
		"probe_wait_base_s": v.probeWaitBase.Seconds(), "probe_wait_rand_s": v.probeWaitRand.Seconds(),
		"ecn": 0, "ecn_thresh": v.ecnThresh, "extra_acked_gain": v.extraAckedGain,
	}
}

// start records the event time and stamps the filters with the flow's
// first one (bbr_init).
func (b *BBR) start(now time.Duration) {
	b.now = now
	if b.begin(now) {
		b.probeMinStamp = now
	}
}

// OnSend tracks cwnd limitation and idle restarts (CA_EVENT_TX_START).
func (b *BBR) OnSend(now time.Duration, s cc.SentInfo) {
	b.start(now)
	if s.Inflight+b.mss > b.cwnd {
		b.limitedNow = true
	}
	b.noteSend(now, s, b)
}

// OnAck runs the per-ACK model update and control (bbr_main).
func (b *BBR) OnAck(now time.Duration, rs *cc.RateSample) {
	b.start(now)
	state := b.enterState(rs)
	b.noteAck(rs, b.p.startupPacing)
	b.totalCE += int64(rs.ECEBytes)
	b.roundCE += int64(rs.ECEBytes)
	if b.round.update(rs) {
		b.roundsSinceProbe = min(b.roundsSinceProbe+1, 255)
		b.limitedPrev, b.limitedNow = b.limitedNow, false
		b.updateECNAlpha()
		b.roundCE, b.roundBase = 0, rs.TotalDelivered
	}
	b.ecnInRound = b.ecnInRound || (b.ecnEligible && rs.ECEBytes > 0)
	b.sampleBw = 0
	if rs.Interval > 0 {
		b.sampleBw = rs.DeliveryRate
	}
	if rs.LostBytes > 0 {
		b.noteLoss()
	}
	b.updateLatestDeliverySignals(rs)
	b.updateModel(now, rs, state)
	b.updateGains()
	if b.pol != nil {
		b.applyPolicy(now, rs)
	}
	bw := b.bwEst()
	b.setPacingRate(bw, b.pacingGain)
	b.setCwnd(rs, bw)
	b.boundCwnd()
	if b.lossRoundStart { // bbr_advance_latest_delivery_signals
		b.bwLatest, b.inflightLatest = b.sampleBw, int(rs.Delivered)
	}
	b.prevState = state
	b.lossInCycle = b.lossInCycle || rs.Lost > 0
	b.ecnInCycle = b.ecnInCycle || rs.ECEBytes > 0
}

// enterState applies recovery-state transitions that Linux signals before
// cong_control: saving cwnd on entering recovery (bbr_ssthresh) and
// restoring it when RTO recovery ends (bbr_exit_loss_recovery).
func (b *BBR) enterState(rs *cc.RateSample) caState {
	state := b.ackState(rs)
	if b.prevState == caLoss && state != caLoss {
		b.restoreCwnd()
		b.inLoss = false
	}
	return state
}

// OnRTO enters TCP_CA_Loss (tcp_enter_loss + bbr_set_state).
func (b *BBR) OnRTO(now time.Duration) {
	b.start(now)
	b.enterLoss()
	b.resetFullBw()
	if !b.probingBandwidth() && b.inflightLo == unset {
		b.inflightLo = max(b.cwnd, b.priorCwnd)
	}
	b.cwnd = cc.MinCWnd(b.mss)
}

// updateModel runs the model updates in Linux's order (bbr_update_model).
func (b *BBR) updateModel(now time.Duration, rs *cc.RateSample, state caState) {
	b.updateCongestionSignals(rs)
	if rs.AckedBytes > 0 && rs.Delivered >= 0 && rs.Interval > 0 {
		win := bbrfilter.ExtraAckedWinRounds
		if !b.fullReached {
			win = 1 // 1–2 round window in STARTUP (v2 extra_acked_in_startup)
		}
		b.agg.Update(now, rs.AckedBytes, b.bwEst(), b.round.start, win, b.cwnd, b.mss)
	}
	b.checkLossTooHighInStartup(rs, state)
	b.checkFullBw(rs)
	b.checkDrain(now, rs)
	b.updateCyclePhase(now, rs)
	b.updateMinRTT(now, rs)
}

// maxBw is the max of the two cycle windows (bbr_max_bw).
func (b *BBR) maxBw() float64 { return max(b.bwHi[0], b.bwHi[1]) }

// bwEst is the bandwidth the model uses: bw_hi bounded by bw_lo (bbr_bw).
func (b *BBR) bwEst() float64 { return min(b.maxBw(), b.bwLo) }

// inflight is the BDP at gain plus the TSO budget (bbr_inflight).
func (b *BBR) inflight(bw, gain float64) int {
	probing := b.mode == modeProbeBW && b.cycleIdx == cycleUp
	return quantizationV2(bdp(bw, b.minRTT, gain, b.mss, b.initCwnd), b.tsoSegs(), b.mss, probing)
}

func (b *BBR) tsoSegs() int { return tsoSegsV2(b.pacing, b.minRTT, b.mss, b.p.v3) }

// targetInflight is the BDP unless congestion cut cwnd (bbr_target_inflight).
func (b *BBR) targetInflight() int { return min(b.inflight(b.bwEst(), 1), b.cwnd) }

// inNetAtEDT: see V1.inNetAtEDT.
func (b *BBR) inNetAtEDT(inflight int) int {
	if b.pacingGain > 1 {
		inflight += b.tsoSegs() * b.mss
	}
	return inflight
}

// probingBandwidth: STARTUP, or PROBE_BW REFILL/UP (bbr_is_probing_bandwidth).
func (b *BBR) probingBandwidth() bool {
	return b.mode == modeStartup ||
		(b.mode == modeProbeBW && (b.cycleIdx == cycleRefill || b.cycleIdx == cycleUp))
}

// cwndLimited approximates Linux tp->is_cwnd_limited: the sender could
// not send a full segment within cwnd during this or the previous round.
func (b *BBR) cwndLimited() bool { return b.limitedNow || b.limitedPrev }
