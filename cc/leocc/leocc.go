package leocc

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/internal/bbrfilter"
)

// mode is LeoCC's top-level state (enum leocc_mode).
type mode uint8

const (
	modeStartup  mode = iota // LEOCC_STARTUP
	modeDrain                // LEOCC_DRAIN
	modeCruise               // LEOCC_DYNAMIC_CRUISE: BBR's PROBE_BW
	modeProbeRTT             // LEOCC_PROBE_RTT
)

// caState is the transport's loss-recovery state as LeoCC sees it.
type caState uint8

const (
	caOpen     caState = iota // TCP_CA_Open/Disorder
	caRecovery                // TCP_CA_Recovery
	caLoss                    // TCP_CA_Loss, after an RTO
)

// LeoCC is one flow's controller.
type LeoCC struct {
	p        params
	rng      *rand.Rand
	mss      int
	initCwnd int // bytes

	cwnd, priorCwnd int     // bytes
	pacing          float64 // bytes/s
	hasSeenRTT      bool
	mode            mode
	pacingGain      float64
	cwndGain        float64
	upGain          float64 // gain of phase 0, 1.25 or 1.05
	cycleIdx        int
	cycleStamp      time.Duration

	bw            bbrfilter.MaxFilter // max delivery rate over bwRounds rounds, bytes/s
	useKalman     bool                // the model bandwidth is kalBw (RTT fluctuation)
	round         int64
	nextDelivered int64
	roundStart    bool
	roundMaxBw    float64 // largest sample of the current round
	latestBw      float64 // previous ACK's sample
	reconfigBw    float64 // post-reconfiguration bandwidth
	kalBw, kalRTT kalman
	trig          trigger
	reconfiguring bool // reconfiguration_trigger

	fullBw                    float64
	fullBwCnt                 int
	fullReached               bool
	minRTT                    time.Duration // 0 until the first sample
	minRTTStamp               time.Duration
	probeDone                 time.Duration // valid if probeArmed
	probeArmed, probeRoundEnd bool
	prevState                 caState
	inLoss, conserving        bool
	idleRestart, appLimited   bool
	probeRTTAck               bool // this ACK found the flow in PROBE_RTT (MarkAppLimited)
	started                   bool

	agg bbrfilter.ExtraAcked
}

var _ cc.Inspector = (*LeoCC)(nil)

func init() {
	cc.Register(cc.Info{
		Name:        "leocc",
		Description: "LeoCC: BBRv1 with LEO reconfiguration trigger (schedule or 45 ms ACK gap), ProbeRTT+STARTUP at boundaries, Kalman bw/RTT",
		Source:      "Lai et al., LeoCC, ACM SIGCOMM 2025; SpaceNetLab/LeoCC leocc/simulation/leocc.c",
		Params:      defaultParams(),
		New:         func(cfg cc.Config) (cc.Controller, error) { return New(cfg) },
	})
}

// New builds a LeoCC controller from cfg (MSS, InitialCWnd and Rand set,
// as cc.New does).
func New(cfg cc.Config) (*LeoCC, error) {
	if cfg.MSS <= 0 || cfg.InitialCWnd <= 0 || cfg.Rand == nil {
		return nil, fmt.Errorf("leocc: mss %d and initial cwnd %d must be positive and Rand set", cfg.MSS, cfg.InitialCWnd)
	}
	p, err := parseParams(cfg)
	if err != nil {
		return nil, err
	}
	return newLeoCC(p, cfg.MSS, cfg.InitialCWnd*cfg.MSS, cfg.Rand), nil
}

func newLeoCC(p params, mss, initCwnd int, rng *rand.Rand) *LeoCC {
	l := &LeoCC{p: p, rng: rng, mss: mss, initCwnd: initCwnd, cwnd: initCwnd, upGain: upGain,
		kalBw: newKalman(kalmanQ, kalmanR, kalmanP0), kalRTT: newKalman(kalmanQ, kalmanR, kalmanP0),
		trig: trigger{sched: p.sched, window: p.window, gap: p.detectGap}, mode: modeStartup}
	l.pacing = pacingRate(float64(initCwnd)/defaultRTT.Seconds(), highGain)
	l.updateGains()
	return l
}

// start stamps the filters at the flow's first event (leocc_init).
func (l *LeoCC) start(now time.Duration) {
	if !l.started {
		l.started = true
		l.minRTTStamp = now
		l.agg.Restart(now)
	}
}

// OnSend notes restarts after idle (CA_EVENT_TX_START while app-limited).
func (l *LeoCC) OnSend(now time.Duration, s cc.SentInfo) {
	l.start(now)
	if s.Inflight <= s.Bytes && l.appLimited {
		l.idleRestart = true
		l.agg.Restart(now)
		if l.mode == modeCruise {
			l.setPacingRate(l.bw.Get(), 1)
		} else if l.mode == modeProbeRTT {
			l.checkProbeRTTDone(now)
		}
	}
	l.appLimited = s.AppLimited
}

// OnAck is leocc_main: trigger, model update, Kalman RTT, the choice of
// bandwidth and UP gain, then pacing rate and cwnd.
func (l *LeoCC) OnAck(now time.Duration, rs *cc.RateSample) {
	l.start(now)
	if l.trig.onAck(now, rs.PriorInflight) {
		l.reconfiguring = true
	}
	state := l.caState(rs)
	if state == caRecovery && l.prevState == caOpen {
		l.saveCwnd() // tcp_enter_recovery calls ssthresh() first
	}
	if !l.hasSeenRTT && rs.SRTT > 0 {
		l.hasSeenRTT = true
		l.pacing = pacingRate(float64(l.cwnd)/rs.SRTT.Seconds(), highGain)
	}
	l.updateModel(now, rs)
	if rs.RTT > 0 {
		l.kalRTT.update(float64(rs.RTT))
	}
	bw := l.chooseBw()
	l.setPacingRate(bw, l.pacingGain)
	l.setCwnd(rs, state, bw)
}

// chooseBw picks the model bandwidth: the Kalman estimate while the RTT
// fluctuates in PROBE_BW without a pending reconfiguration, else the max
// filter; and sets the UP gain the cycle uses from the next ACK on. The
// Kalman estimate is used only once it has a measurement (the module would
// pace at its initial 0 if the RTT fluctuated before the first round of
// PROBE_BW ended).
func (l *LeoCC) chooseBw() float64 {
	l.useKalman = l.p.minRTTFlu > 0 && l.mode == modeCruise && !l.reconfiguring && l.kalBw.n > 0 &&
		l.kalRTT.x >= float64(l.p.deltaRTT+l.minRTT+l.p.minRTTFlu)
	if l.useKalman {
		l.upGain = upGainFluct
		return l.kalBw.x
	}
	l.upGain = upGain
	return l.bw.Get()
}

// caState derives this ACK's recovery state; after OnRTO it is caLoss
// until the transport's recovery ends.
func (l *LeoCC) caState(rs *cc.RateSample) caState {
	switch {
	case l.inLoss && rs.InRecovery:
		return caLoss
	case rs.InRecovery:
		return caRecovery
	}
	return caOpen
}

// OnRTO enters TCP_CA_Loss (tcp_enter_loss with leocc_ssthresh and
// leocc_set_state): save cwnd, restart the full-pipe count. (The
// module's round_start = 1 only feeds BBRv1's policer sampler, which LeoCC
// does not have.)
func (l *LeoCC) OnRTO(now time.Duration) {
	l.start(now)
	l.saveCwnd()
	l.inLoss = true
	l.prevState = caLoss
	l.fullBw = 0
	l.cwnd = cc.MinCWnd(l.mss)
}

// CWnd returns the congestion window in bytes.
func (l *LeoCC) CWnd() int { return l.cwnd }

// PacingRate returns the pacing rate in bytes/s.
func (l *LeoCC) PacingRate() float64 { return l.pacing }

// Inspect reports the phase and model. Keys: phase (see package doc),
// mode (enum leocc_mode 0–3), cycle_idx, pacing_gain, cwnd_gain, up_gain,
// btlbw_bps (the model bandwidth in use), max_bw_bps, kalman_bw_bps,
// kalman_rtt_ms, kalman_gain_bw, kalman_gain_rtt, use_kalman, min_rtt_ms,
// round, reconfiguring (trigger pending), reconfigs (triggers so far),
// reconfig_bw_bps, full_bw_reached, extra_acked, prior_cwnd (bytes).
func (l *LeoCC) Inspect() map[string]float64 {
	bw := l.bw.Get()
	if l.useKalman {
		bw = l.kalBw.x
	}
	return map[string]float64{
		"phase": float64(l.phase()), "mode": float64(l.mode), "cycle_idx": float64(l.cycleIdx),
		"pacing_gain": l.pacingGain, "cwnd_gain": l.cwndGain, "up_gain": l.upGain,
		"btlbw_bps": 8 * bw, "max_bw_bps": 8 * l.bw.Get(), "kalman_bw_bps": 8 * l.kalBw.x,
		"kalman_rtt_ms": l.kalRTT.x / float64(time.Millisecond), "kalman_gain_bw": l.kalBw.k,
		"kalman_gain_rtt": l.kalRTT.k, "use_kalman": cc.Flag(l.useKalman), "min_rtt_ms": ms(l.minRTT),
		"round": float64(l.round), "reconfiguring": cc.Flag(l.reconfiguring), "reconfigs": float64(l.trig.count),
		"reconfig_bw_bps": 8 * l.reconfigBw, "full_bw_reached": cc.Flag(l.fullReached),
		"extra_acked": float64(l.agg.Get()), "prior_cwnd": float64(l.priorCwnd),
	}
}

// Phase numbers reported by Inspect, as cc/bbr's (Linux uapi enum
// tcp_bbr_phase): the 1.25/1.05 phase is UP, 0.75 DOWN, the 1.0 ones CRUISE.
const (
	phaseStartup  = 1 // BBR_PHASE_STARTUP
	phaseDrain    = 2 // BBR_PHASE_DRAIN
	phaseUp       = 3 // BBR_PHASE_PROBE_BW_UP
	phaseDown     = 4 // BBR_PHASE_PROBE_BW_DOWN
	phaseCruise   = 5 // BBR_PHASE_PROBE_BW_CRUISE
	phaseProbeRTT = 7 // BBR_PHASE_PROBE_RTT
)

// phase maps mode and cycle index to the phase numbers.
func (l *LeoCC) phase() int {
	switch l.mode {
	case modeStartup:
		return phaseStartup
	case modeDrain:
		return phaseDrain
	case modeProbeRTT:
		return phaseProbeRTT
	}
	switch l.cycleIdx {
	case 0:
		return phaseUp
	case 1:
		return phaseDown
	}
	return phaseCruise
}
