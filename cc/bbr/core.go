package bbr

import (
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/internal/bbrfilter"
)

// core is the state and the steps BBRv1 (V1) and BBRv2/v3 (BBR) share:
// the fields common to Linux's struct bbr in tcp_bbr.c and tcp_bbr2.c and
// the functions both files define alike (bbr_save_cwnd,
// bbr_set_pacing_rate, the idle restart of bbr_cwnd_event, the PROBE_RTT
// timer of bbr_update_min_rtt, bbr_check_full_bw_reached). Each version
// embeds it and keeps what differs.
type core struct {
	rng      *rand.Rand
	mss      int
	initCwnd int // bytes
	started  bool

	cwnd        int     // bytes
	pacing      float64 // bytes/s
	hasSeenRTT  bool
	mode        mode
	pacingGain  float64
	cwndGain    float64
	round       roundCounter
	fullBw      float64
	fullBwCnt   int
	fullReached bool
	cycleIdx    int
	cycleStamp  time.Duration

	minRTT       time.Duration // 0 until the first sample
	minRTTStamp  time.Duration
	probeRTTDone time.Duration // end of PROBE_RTT, valid if probeArmed
	probeRTTAck  bool          // this ACK found the flow in PROBE_RTT (MarkAppLimited)
	probeArmed   bool
	probeRound   bool // a round passed at the low window
	priorCwnd    int
	prevState    caState
	inLoss       bool
	idleRestart  bool
	appLimited   bool // last send was application limited

	agg       bbrfilter.ExtraAcked
	delivered int64 // last known C.delivered
	lost      int64 // last known C.lost
}

// newCore starts a flow at the initial window, paced at startupGain times
// that window per 1 ms until the first RTT sample (bbr_init).
func newCore(cfg cc.Config, startupGain float64) core {
	c := core{rng: cfg.Rand, mss: cfg.MSS, initCwnd: cfg.InitialCWnd * cfg.MSS}
	c.cwnd = c.initCwnd
	c.pacing = initialPacingRate(c.cwnd, 0, startupGain)
	return c
}

// CWnd returns the congestion window in bytes.
func (c *core) CWnd() int { return c.cwnd }

// PacingRate returns the pacing rate in bytes/s.
func (c *core) PacingRate() float64 { return c.pacing }

// begin stamps the min_rtt filter and the aggregation estimator with the
// flow's first event time (bbr_init) and reports whether this was it.
func (c *core) begin(now time.Duration) bool {
	if c.started {
		return false
	}
	c.started = true
	c.minRTTStamp = now
	c.agg.Restart(now)
	return true
}

// version is what core asks of the state machine that embeds it.
type version interface {
	bwEst() float64                      // the bandwidth the model uses (bbr_bw)
	checkProbeRTTDone(now time.Duration) // leave PROBE_RTT if its time is up
}

// noteSend handles a restart from idle, the first send after an
// application-limited stretch with nothing in flight (CA_EVENT_TX_START
// in bbr_cwnd_event): the aggregation estimator restarts, PROBE_BW paces
// at v's estimated bandwidth and PROBE_RTT checks whether its time is up.
func (c *core) noteSend(now time.Duration, s cc.SentInfo, v version) {
	restart := s.Inflight <= s.Bytes && c.appLimited
	c.appLimited = s.AppLimited
	if !restart {
		return
	}
	c.idleRestart = true
	c.agg.Restart(now)
	switch c.mode {
	case modeProbeBW:
		c.setPacingRate(v.bwEst(), 1)
	case modeProbeRTT:
		v.checkProbeRTTDone(now)
	}
}

// ackState derives this ACK's recovery state and saves cwnd on entering
// fast recovery (tcp_enter_recovery calls ssthresh(), bbr_ssthresh, first).
func (c *core) ackState(rs *cc.RateSample) caState {
	state := recoveryState(c.inLoss, rs)
	if state == caRecovery && c.prevState == caOpen {
		c.saveCwnd()
	}
	return state
}

// noteAck records the connection's delivered and lost totals and, on the
// first RTT sample, re-derives the startup pacing rate from it
// (bbr_init_pacing_rate_from_rtt).
func (c *core) noteAck(rs *cc.RateSample, startupGain float64) {
	c.delivered, c.lost = rs.TotalDelivered, rs.TotalLost
	if !c.hasSeenRTT && rs.SRTT > 0 {
		c.hasSeenRTT = true
		c.pacing = initialPacingRate(c.cwnd, rs.SRTT, startupGain)
	}
}

// enterLoss enters TCP_CA_Loss on an RTO, saving cwnd first
// (tcp_enter_loss calls ssthresh(), then bbr_set_state).
func (c *core) enterLoss() {
	c.saveCwnd()
	c.inLoss = true
	c.prevState = caLoss
}

// saveCwnd remembers the last good cwnd before recovery or PROBE_RTT cuts
// it (bbr_save_cwnd).
func (c *core) saveCwnd() {
	if c.prevState == caOpen && c.mode != modeProbeRTT {
		c.priorCwnd = c.cwnd
	} else {
		c.priorCwnd = max(c.priorCwnd, c.cwnd)
	}
}

// MarkAppLimited asks the transport to flag the samples of data sent in
// PROBE_RTT as application-limited, so that the mode's 4-packet rates do
// not age the max-bw filter's value out (cc.AppLimitedMarker). Linux
// bbr_update_min_rtt sets tp->app_limited on every ACK in PROBE_RTT,
// including the one that ends it: the first burst after PROBE_RTT is
// still app-limited, so its sample, which spans the mode's quiet time,
// cannot reset the filter.
func (c *core) MarkAppLimited() bool { return c.probeRTTAck }

// restoreCwnd brings back the window saved by saveCwnd.
func (c *core) restoreCwnd() { c.cwnd = max(c.cwnd, c.priorCwnd) }

// setPacingRate paces at gain·bw, never lowering the rate before the pipe
// is full (bbr_set_pacing_rate).
func (c *core) setPacingRate(bw, gain float64) {
	if rate := pacingRate(bw, gain); c.fullReached || rate > c.pacing {
		c.pacing = rate
	}
}

// enterProbeRTT switches to PROBE_RTT, saving cwnd, when the RTT estimate
// it refreshes has expired, PROBE_RTT is enabled (dur > 0) and the flow is
// not restarting from idle; it reports whether it did.
func (c *core) enterProbeRTT(expired bool, dur time.Duration) bool {
	if dur <= 0 || !expired || c.idleRestart || c.mode == modeProbeRTT {
		return false
	}
	c.mode = modeProbeRTT
	c.saveCwnd()
	c.probeArmed = false
	return true
}

// probeRTTRound runs PROBE_RTT's clock: once inflight is down to floor
// bytes it arms a timer of dur and starts a round; it reports whether the
// timer is armed and a round has passed since, so the caller may check
// whether the time is up.
func (c *core) probeRTTRound(now time.Duration, rs *cc.RateSample, floor int, dur time.Duration) bool {
	if !c.probeArmed {
		if rs.Inflight <= floor {
			c.probeRTTDone = now + dur
			c.probeArmed = true
			c.probeRound = false
			c.round.restart(c.delivered)
		}
		return false
	}
	c.probeRound = c.probeRound || c.round.start
	return c.probeRound
}

// exitProbeRTT reports whether PROBE_RTT's timer has run out and, if so,
// restores the saved window (bbr_check_probe_rtt_done); the caller picks
// the next mode.
func (c *core) exitProbeRTT(now time.Duration) bool {
	if !c.probeArmed || now <= c.probeRTTDone {
		return false
	}
	c.restoreCwnd()
	return true
}

// checkFullBwRound estimates whether STARTUP filled the pipe: 3
// non-app-limited rounds in which maxBw, the max-bw filter's value, grew by
// less than 25% (bbr_check_full_bw_reached of v1 and v2).
func (c *core) checkFullBwRound(rs *cc.RateSample, maxBw float64) {
	if c.fullReached || !c.round.start || rs.IsAppLimited {
		return
	}
	if maxBw >= c.fullBw*fullBwThresh {
		c.fullBw, c.fullBwCnt = maxBw, 0
		return
	}
	c.fullBwCnt++
	c.fullReached = c.fullBwCnt >= fullBwCount
}

// inspect starts Inspect's map with the keys every version reports: phase
// (see Phase*), mode (Linux bbr_mode 0–3), pacing_gain, cwnd_gain,
// btlbw_bps (bw, the bandwidth the model uses, in bits/s), min_rtt_ms,
// round, extra_acked (bytes) and full_bw_reached; size is the capacity
// hint for the caller's own keys.
func (c *core) inspect(phase int, bw float64, size int) map[string]float64 {
	m := make(map[string]float64, size)
	m["phase"] = float64(phase)
	m["mode"] = float64(c.mode)
	m["pacing_gain"] = c.pacingGain
	m["cwnd_gain"] = c.cwndGain
	m["btlbw_bps"] = 8 * bw
	m["min_rtt_ms"] = ms(c.minRTT)
	m["round"] = float64(c.round.count)
	m["extra_acked"] = float64(c.agg.Get())
	m["full_bw_reached"] = cc.Flag(c.fullReached)
	return m
}
