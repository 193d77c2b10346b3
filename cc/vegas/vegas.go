// Package vegas owns TCP Vegas congestion control as Linux implements it in
// net/ipv4/tcp_vegas.c (Brakmo & Peterson, IEEE JSAC 13(8), 1995): a
// delay-based window that, once per round trip, compares the window with
// the window the propagation delay alone would need and keeps between alpha
// and beta segments queued at the bottleneck.
//
// Like Linux it counts the window in segments, measures RTTs in whole
// microseconds (plus one, so no RTT is ever zero), takes baseRTT as the
// smallest RTT ever seen and the round's RTT as the smallest RTT of the
// round, falls back to Reno when a round had too few RTT samples (a sign of
// delayed ACKs), and halves the window on loss as Reno does. Vegas is
// unpaced.
package vegas

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/cc"
)

const (
	// defaultAlpha, defaultBeta and defaultGamma are the module parameters
	// of tcp_vegas.c: the lower and upper bounds of segments kept queued in
	// congestion avoidance, and the queue that ends slow start.
	defaultAlpha = 2
	defaultBeta  = 4
	defaultGamma = 1
	// minRTTSamples is the number of RTT samples a round needs for the
	// Vegas calculation; with fewer ("cntRTT <= 2") the ACKs are almost
	// certainly delayed and tcp_vegas_cong_avoid behaves like Reno.
	minRTTSamples = 3
	// infiniteSSThresh is Linux's TCP_INFINITE_SSTHRESH (RFC 5681 §3.1's
	// "arbitrarily high" initial slow-start threshold), in segments.
	infiniteSSThresh = 0x7fffffff
	// minCWndSegs is the floor tcp_vegas_cong_avoid keeps ("if
	// (tp->snd_cwnd < 2) tp->snd_cwnd = 2") and tcp_reno_ssthresh's.
	minCWndSegs = 2
	// lossWindowSegs is the window after a retransmission timeout (RFC 5681
	// §3.1 LW; Linux tcp_enter_loss).
	lossWindowSegs = 1
	// noRTT marks "no sample yet" for the microsecond RTT filters
	// (tcp_vegas.c initialises them to 0x7fffffff).
	noRTT = math.MaxInt64
)

// Phases reported by Inspect under "phase".
const (
	PhaseSlowStart = 0 // cwnd < ssthresh
	PhaseAvoidance = 1 // Vegas congestion avoidance
	PhaseRecovery  = 2 // loss recovery: Vegas disabled (tcp_vegas_state)
)

// Compile-time checks that Vegas satisfies the contracts.
var (
	_ cc.Controller = (*Vegas)(nil)
	_ cc.Inspector  = (*Vegas)(nil)
)

func init() {
	cc.Register(cc.Info{
		Name:        "vegas",
		Description: "TCP Vegas: keeps alpha..beta segments queued, per-RTT window adjustment from baseRTT",
		Source:      "Linux net/ipv4/tcp_vegas.c; Brakmo & Peterson, IEEE JSAC 13(8), 1995",
		Params: map[string]float64{
			"alpha": defaultAlpha, "beta": defaultBeta, "gamma": defaultGamma,
		},
		New: func(cfg cc.Config) (cc.Controller, error) { return New(cfg) },
	})
}

// Vegas is one flow's Vegas controller. Windows are in segments of mss
// bytes; RTTs in microseconds, as in Linux.
type Vegas struct {
	mss                int
	alpha, beta, gamma int64

	cwnd     int64 // segments (snd_cwnd)
	ssthresh int64 // segments (snd_ssthresh)
	cwndCnt  int64 // additive-increase counter (snd_cwnd_cnt)

	baseRTT int64 // µs+1, smallest RTT ever seen
	minRTT  int64 // µs+1, smallest RTT of the current round
	cntRTT  int   // RTT samples in the current round

	doing      bool  // doing_vegas_now: outside loss recovery
	roundStart int64 // beg_snd_nxt as C.delivered: the round ends on an ACK of data sent after it
	recovering bool  // fast recovery: the window is being reduced (PRR), no growth
	lossState  bool  // after an RTO until repaired: Reno growth from one segment
	sentAny    bool

	maxInflight int64 // bytes: largest inflight since the last round (cwnd-limited test)
	lastDiff    int64 // segments: last Vegas "diff"
	rounds      int64
}

// New builds a Vegas controller from cfg (MSS and InitialCWnd set, as
// cc.New does). Params: alpha, beta, gamma in segments (integers,
// 0 <= alpha <= beta).
func New(cfg cc.Config) (*Vegas, error) {
	if cfg.MSS <= 0 || cfg.InitialCWnd <= 0 {
		return nil, fmt.Errorf("vegas: mss %d and initial cwnd %d must be positive", cfg.MSS, cfg.InitialCWnd)
	}
	var p [3]int64
	for i, name := range []string{"alpha", "beta", "gamma"} {
		v := cfg.Param(name, []float64{defaultAlpha, defaultBeta, defaultGamma}[i])
		if v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
			return nil, fmt.Errorf("vegas: parameter %s = %v: must be a non-negative whole number of segments", name, v)
		}
		p[i] = int64(v)
	}
	if p[0] > p[1] {
		return nil, fmt.Errorf("vegas: alpha %d > beta %d: alpha must not exceed beta", p[0], p[1])
	}
	return newVegas(cfg.MSS, int64(cfg.InitialCWnd), p[0], p[1], p[2]), nil
}

// newVegas exposes every knob for tests.
func newVegas(mss int, cwnd, alpha, beta, gamma int64) *Vegas {
	v := &Vegas{mss: mss, alpha: alpha, beta: beta, gamma: gamma,
		cwnd: cwnd, ssthresh: infiniteSSThresh}
	v.init()
	return v
}

// init is tcp_vegas_init: forget baseRTT and start sampling afresh.
func (v *Vegas) init() {
	v.baseRTT = noRTT
	v.enable(0)
}

// enable is vegas_enable: a new round begins with the next data sent
// (delivered is the connection's delivered bytes now).
func (v *Vegas) enable(delivered int64) {
	v.doing = true
	v.roundStart = delivered
	v.cntRTT = 0
	v.minRTT = noRTT
}

// OnSend tracks window usage and restarts Vegas when transmission starts
// from idle (CA_EVENT_TX_START → tcp_vegas_init).
func (v *Vegas) OnSend(_ time.Duration, s cc.SentInfo) {
	if s.Inflight == s.Bytes && !s.Retrans && v.sentAny {
		v.init()
	}
	v.sentAny = true
	v.maxInflight = max(v.maxInflight, int64(s.Inflight))
}

// OnAck reduces once per loss episode as Reno does (tcp_reno_ssthresh,
// ending at ssthresh as PRR does), samples the RTT (tcp_vegas_pkts_acked)
// and, outside recovery, runs tcp_vegas_cong_avoid.
func (v *Vegas) OnAck(_ time.Duration, rs *cc.RateSample) {
	switch {
	case v.lossState:
		if !rs.InRecovery {
			v.lossState = false
			v.enable(rs.TotalDelivered) // tcp_vegas_state(TCP_CA_Open)
		}
	case rs.NewLossEpisode:
		v.ssthresh = max(v.cwnd/2, minCWndSegs)
		v.cwnd = v.ssthresh
		v.cwndCnt = 0
		v.recovering, v.doing = true, false
	case v.recovering && !rs.Reducing():
		v.recovering = false
		v.enable(rs.TotalDelivered) // tcp_vegas_state(TCP_CA_Open)
	}
	if rs.RTT > 0 {
		vrtt := rs.RTT.Microseconds() + 1 // "Never allow zero rtt or baseRTT"
		v.baseRTT = min(v.baseRTT, vrtt)
		v.minRTT = min(v.minRTT, vrtt)
		v.cntRTT++
	}
	switch {
	case v.recovering || rs.AckedPackets <= 0:
		// Linux reduces by PRR in Recovery and does not call cong_avoid
	case v.lossState:
		v.renoCongAvoid(int64(rs.AckedPackets)) // Vegas off in TCP_CA_Loss
	default:
		v.congAvoid(rs)
	}
}

// congAvoid is tcp_vegas_cong_avoid.
func (v *Vegas) congAvoid(rs *cc.RateSample) {
	acked := int64(rs.AckedPackets)
	if !v.doing {
		v.renoCongAvoid(acked)
		return
	}
	if rs.PriorDelivered < v.roundStart { // !after(ack, beg_snd_nxt)
		if v.inSlowStart() {
			v.slowStart(acked)
		}
		return
	}
	v.roundStart = rs.TotalDelivered
	v.rounds++
	if v.cntRTT < minRTTSamples {
		v.renoCongAvoid(acked)
	} else {
		v.adjust(acked)
	}
	v.cntRTT = 0
	v.minRTT = noRTT
	v.maxInflight = int64(rs.Inflight)
}

// adjust is the once-per-round Vegas decision on the round's minimum RTT.
func (v *Vegas) adjust(acked int64) {
	rtt := v.minRTT
	target := v.cwnd * v.baseRTT / rtt             // segments the path needs without queueing
	diff := v.cwnd * (rtt - v.baseRTT) / v.baseRTT // Linux's "Diff", truncated as u32 maths does
	v.lastDiff = diff
	switch {
	case diff > v.gamma && v.inSlowStart():
		v.cwnd = min(v.cwnd, target+1)
		v.ssthresh = min(v.ssthresh, v.cwnd)
	case v.inSlowStart():
		v.slowStart(acked)
	case diff > v.beta:
		v.cwnd--
		v.ssthresh = min(v.ssthresh, v.cwnd)
	case diff < v.alpha:
		v.cwnd++
	}
	v.cwnd = max(v.cwnd, minCWndSegs)
	// tcp_current_ssthresh outside cwnd reduction: max(ssthresh, 3/4 cwnd).
	v.ssthresh = max(v.ssthresh, v.cwnd>>1+v.cwnd>>2)
}

// OnRTO collapses the window to one segment (tcp_enter_loss with
// tcp_reno_ssthresh) and disables Vegas until the loss is repaired; the
// window grows as Reno meanwhile (Linux calls cong_avoid in the Loss
// state, which tcp_vegas_cong_avoid hands to tcp_reno_cong_avoid).
func (v *Vegas) OnRTO(time.Duration) {
	if !v.lossState && !v.recovering { // reduced once per episode (tcp_enter_loss)
		v.ssthresh = max(v.cwnd/2, minCWndSegs)
	}
	v.cwnd = lossWindowSegs
	v.cwndCnt = 0
	v.recovering, v.lossState, v.doing = false, true, false
}

// CWnd is the window in bytes.
func (v *Vegas) CWnd() int { return int(v.cwnd) * v.mss }

// PacingRate is 0: Vegas is unpaced.
func (v *Vegas) PacingRate() float64 { return 0 }

// Inspect reports phase (PhaseSlowStart, PhaseAvoidance, PhaseRecovery),
// windows in segments, baseRTT and the round's RTT in ms (0 when none yet),
// the round's sample count and the last diff.
func (v *Vegas) Inspect() map[string]float64 {
	phase := PhaseAvoidance
	switch {
	case v.recovering || v.lossState:
		phase = PhaseRecovery
	case v.inSlowStart():
		phase = PhaseSlowStart
	}
	ms := func(us int64) float64 {
		if us == noRTT {
			return 0
		}
		return float64(us) / 1e3
	}
	return map[string]float64{
		"phase": float64(phase), "cwnd_pkts": float64(v.cwnd), "ssthresh_pkts": float64(min(v.ssthresh, infiniteSSThresh)),
		"base_rtt_ms": ms(v.baseRTT), "round_min_rtt_ms": ms(v.minRTT), "cnt_rtt": float64(v.cntRTT),
		"diff_pkts": float64(v.lastDiff), "rounds": float64(v.rounds),
	}
}
