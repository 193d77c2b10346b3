// Package hybla owns TCP Hybla congestion control as Linux implements it in
// net/ipv4/tcp_hybla.c (Caini & Firrincieli, Int. J. Satellite Commun.
// Netw. 22(5), 2004): Reno whose growth is scaled so that a long-RTT flow
// grows per unit time as a flow with the reference RTT rtt0 would.
//
// With rho = max(SRTT/rtt0, 1), taken from the smallest SRTT seen, each ACK
// adds 2^rho − 1 segments in slow start (clamped at ssthresh) and rho²/cwnd
// in congestion avoidance, whatever the ACK covers: hybla_cong_avoid
// ignores its acked argument. With a receiver that ACKs every second
// segment the window grows by rho²/2 segments per round trip in
// avoidance, half the paper's per-segment model (per_ack=0 selects that).
// Growth needs the window to be in use (tcp_is_cwnd_limited): a window
// that Hybla's slow start inflates beyond what the receiver's window lets
// the sender put in flight stops growing. Loss response is Reno's halving.
// Hybla is unpaced.
//
// Differences from Linux, both harmless here: Linux computes rho in eighths
// and 2^rho from a table, here both are exact; and Linux starts at cwnd =
// rho from the handshake RTT (hybla_init) while here the transport's
// initial window is used until the first RTT sample (the same 10 segments
// at 250 ms).
package hybla

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/cc"
)

const (
	// defaultRTT0 is the reference round-trip time, tcp_hybla.c's rtt0
	// module parameter (25 ms).
	defaultRTT0 = 25 * time.Millisecond
	// cwndClampSegs is the window clamp hybla_init sets (snd_cwnd_clamp =
	// 65535 segments).
	cwndClampSegs = 65535
	// minCWndSegs is tcp_reno_ssthresh's floor after a loss (2 segments).
	minCWndSegs = 2
	// lossWindowSegs is the window after a retransmission timeout (RFC 5681
	// §3.1 LW; Linux tcp_enter_loss).
	lossWindowSegs = 1
	// infiniteSSThresh is Linux's TCP_INFINITE_SSTHRESH in segments.
	infiniteSSThresh = 0x7fffffff
)

// Phases reported by Inspect under "phase".
const (
	PhaseSlowStart = 0
	PhaseAvoidance = 1
	PhaseRecovery  = 2 // loss recovery: no growth, Hybla disabled (hybla_state)
)

// Compile-time checks that Hybla satisfies the contracts.
var (
	_ cc.Controller = (*Hybla)(nil)
	_ cc.Inspector  = (*Hybla)(nil)
)

func init() {
	cc.Register(cc.Info{
		Name:        "hybla",
		Description: "TCP Hybla: Reno with growth scaled by rho = SRTT/rtt0 (satellite paths)",
		Source:      "Linux net/ipv4/tcp_hybla.c; Caini & Firrincieli, IJSCN 22(5), 2004",
		Params: map[string]float64{
			"rtt0_ms": float64(defaultRTT0.Milliseconds()),
			"per_ack": 1,
		},
		New: func(cfg cc.Config) (cc.Controller, error) { return New(cfg) },
	})
}

// Hybla is one flow's Hybla controller. The window is kept in segments
// with its fraction (Linux's snd_cwnd plus snd_cwnd_cents).
type Hybla struct {
	mss    int
	rtt0   time.Duration
	perAck bool

	cwnd     float64 // segments
	ssthresh float64 // segments
	rho      float64
	minSRTT  time.Duration // smallest SRTT seen (ca->minrtt)

	recovering  bool  // fast recovery: the window is being reduced (PRR), no growth
	lossState   bool  // after an RTO until repaired: Reno growth from one segment
	roundStart  int64 // C.delivered at the start of the round (for the cwnd-limited test)
	maxInflight int   // bytes, largest inflight since the round started
	lastMax     int   // bytes, largest inflight of the previous round
}

// New builds a Hybla controller from cfg (MSS and InitialCWnd set, as cc.New
// does). Params: rtt0_ms (> 0), per_ack (1: one increment per ACK, as
// Linux; 0: one per acknowledged segment, the paper's model).
func New(cfg cc.Config) (*Hybla, error) {
	if cfg.MSS <= 0 || cfg.InitialCWnd <= 0 {
		return nil, fmt.Errorf("hybla: mss %d and initial cwnd %d must be positive", cfg.MSS, cfg.InitialCWnd)
	}
	rtt0 := cfg.Param("rtt0_ms", float64(defaultRTT0.Milliseconds()))
	if !(rtt0 > 0) || rtt0 > 1e6 {
		return nil, fmt.Errorf("hybla: parameter rtt0_ms = %v: must be in (0, 1e6]", rtt0)
	}
	perAck := cfg.Param("per_ack", 1)
	if perAck != 0 && perAck != 1 {
		return nil, fmt.Errorf("hybla: parameter per_ack = %v: must be 0 or 1", perAck)
	}
	return newHybla(cfg.MSS, cfg.InitialCWnd, time.Duration(rtt0*float64(time.Millisecond)), perAck == 1), nil
}

// newHybla exposes every knob for tests.
func newHybla(mss, initCWnd int, rtt0 time.Duration, perAck bool) *Hybla {
	return &Hybla{mss: mss, rtt0: rtt0, perAck: perAck, cwnd: float64(initCWnd),
		ssthresh: infiniteSSThresh, rho: 1, minSRTT: math.MaxInt64}
}

// OnSend tracks window usage.
func (h *Hybla) OnSend(_ time.Duration, s cc.SentInfo) {
	h.maxInflight = max(h.maxInflight, s.Inflight)
}

// OnAck reduces once per loss episode (tcp_reno_ssthresh; the window ends at
// ssthresh as PRR makes it), updates rho when SRTT reaches a new minimum and
// otherwise grows as hybla_cong_avoid.
func (h *Hybla) OnAck(_ time.Duration, rs *cc.RateSample) {
	if rs.PriorDelivered >= h.roundStart {
		h.roundStart = rs.TotalDelivered
		h.lastMax, h.maxInflight = h.maxInflight, rs.Inflight
	}
	switch {
	case h.lossState:
		h.lossState = rs.InRecovery // a loss episode during RTO recovery reduces nothing more
	case rs.NewLossEpisode:
		h.ssthresh = max(math.Floor(h.cwnd/2), minCWndSegs)
		h.cwnd = h.ssthresh
		h.recovering = true
	case h.recovering && !rs.Reducing():
		h.recovering = false
	}
	if rs.SRTT > 0 && rs.SRTT < h.minSRTT {
		h.minSRTT = rs.SRTT
		h.rho = max(rs.SRTT.Seconds()/h.rtt0.Seconds(), 1)
	}
	if h.recovering || rs.AckedPackets <= 0 || !h.cwndLimited() {
		return
	}
	if h.lossState {
		// hybla_state: Hybla is off outside TCP_CA_Open, and
		// tcp_reno_cong_avoid counts acknowledged segments.
		h.renoGrow(rs.AckedPackets)
		return
	}
	n := rs.AckedPackets
	if h.perAck {
		n = 1 // hybla_cong_avoid: one increment per ACK
	}
	h.grow(n)
}

// renoGrow is tcp_reno_cong_avoid, which Linux runs in the Loss state
// (tcp_cong_control reduces by PRR only in CWR and Recovery): slow start by
// one segment per acknowledged segment up to ssthresh, then 1/cwnd each.
func (h *Hybla) renoGrow(n int) {
	for range n {
		if h.inSlowStart() {
			h.cwnd = min(h.cwnd+1, h.ssthresh)
		} else {
			h.cwnd += 1 / h.cwnd
		}
	}
}

// grow applies n segments' worth of Hybla increments: 2^rho − 1 each in slow
// start (clamped at ssthresh), rho²/cwnd each in congestion avoidance.
// Increments are applied one segment at a time so that a stretch ACK that
// crosses ssthresh or raises cwnd is treated as n separate ACKs would be.
func (h *Hybla) grow(n int) {
	ssInc := math.Exp2(h.rho) - 1
	rho2 := h.rho * h.rho
	for range n {
		if h.inSlowStart() {
			h.cwnd = min(h.cwnd+ssInc, h.ssthresh)
		} else {
			h.cwnd += rho2 / h.cwnd
		}
	}
	h.cwnd = min(h.cwnd, cwndClampSegs)
}

func (h *Hybla) inSlowStart() bool { return h.cwnd < h.ssthresh }

// cwndLimited approximates Linux's tcp_is_cwnd_limited: the window was
// filled in this or the last round, or in slow start it is less than twice
// what was in flight.
func (h *Hybla) cwndLimited() bool {
	w := h.CWnd()
	used := max(h.maxInflight, h.lastMax)
	if used+h.mss > w {
		return true
	}
	return h.inSlowStart() && w < 2*used
}

// OnRTO collapses the window to one segment (tcp_enter_loss with
// tcp_reno_ssthresh); it then grows as Reno until the loss is repaired.
func (h *Hybla) OnRTO(time.Duration) {
	if !h.lossState && !h.recovering { // reduced once per episode (tcp_enter_loss)
		h.ssthresh = max(math.Floor(h.cwnd/2), minCWndSegs)
	}
	h.cwnd = lossWindowSegs
	h.recovering, h.lossState = false, true
}

// CWnd is the window in bytes (whole segments).
func (h *Hybla) CWnd() int { return int(h.cwnd) * h.mss }

// PacingRate is 0: Hybla is unpaced.
func (h *Hybla) PacingRate() float64 { return 0 }

// Inspect reports phase (PhaseSlowStart, PhaseAvoidance, PhaseRecovery),
// rho, the window and ssthresh in segments and the smallest SRTT in ms.
func (h *Hybla) Inspect() map[string]float64 {
	phase := PhaseAvoidance
	switch {
	case h.recovering || h.lossState:
		phase = PhaseRecovery
	case h.inSlowStart():
		phase = PhaseSlowStart
	}
	minSRTT := 0.0
	if h.minSRTT != math.MaxInt64 {
		minSRTT = float64(h.minSRTT) / 1e6
	}
	return map[string]float64{
		"phase": float64(phase), "rho": h.rho, "cwnd_pkts": h.cwnd,
		"ssthresh_pkts": h.ssthresh, "min_srtt_ms": minSRTT,
	}
}
