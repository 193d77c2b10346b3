// Package reno owns TCP Reno/NewReno congestion control (RFC 5681, RFC 6582)
// as Linux implements it in net/ipv4/tcp_cong.c, and the window-growth
// building blocks Linux shares between algorithms: slow start, additive
// increase, the cwnd-limited test and the loss-episode phases. CUBIC and
// other loss-based controllers reuse them.
//
// Windows are counted in bytes; growth is equivalent to Linux's per-segment
// counting when segments are full-sized. Reno is unpaced.
package reno

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/cc"
)

const (
	// InfiniteSSThresh is the initial slow-start threshold, "arbitrarily
	// high" (RFC 5681 §3.1); Linux's TCP_INFINITE_SSTHRESH is 0x7fffffff.
	InfiniteSSThresh = math.MaxInt32
	// lossWindowSegments is the window after a retransmission timeout:
	// one segment (RFC 5681 §3.1 LW; Linux tcp_enter_loss sets
	// packets_in_flight+1, which is 1 once everything is marked lost).
	lossWindowSegments = 1
)

// Compile-time checks that Reno satisfies the contracts.
var (
	_ cc.Controller = (*Reno)(nil)
	_ cc.Inspector  = (*Reno)(nil)
)

func init() {
	cc.Register(cc.Info{
		Name:        "reno",
		Description: "TCP Reno/NewReno: slow start, AIMD with halving on loss",
		Source:      "RFC 5681, RFC 6582; Linux net/ipv4/tcp_cong.c",
		Params:      map[string]float64{},
		New: func(cfg cc.Config) (cc.Controller, error) {
			return New(cfg)
		},
	})
}

// Reno is one flow's Reno controller.
type Reno struct {
	mss      int
	cwnd     int // bytes
	ssthresh int // bytes
	ai       AI
	ep       Episodes
	use      Usage
}

// New builds a Reno controller from cfg (MSS and InitialCWnd must be set,
// as cc.New does).
func New(cfg cc.Config) (*Reno, error) {
	if cfg.MSS <= 0 || cfg.InitialCWnd <= 0 {
		return nil, fmt.Errorf("reno: mss %d and initial cwnd %d must be positive", cfg.MSS, cfg.InitialCWnd)
	}
	return newReno(cfg.MSS, cfg.InitialCWnd*cfg.MSS, InfiniteSSThresh), nil
}

// newReno exposes every knob for tests: window and threshold in bytes.
func newReno(mss, cwnd, ssthresh int) *Reno {
	return &Reno{mss: mss, cwnd: cwnd, ssthresh: ssthresh}
}

// OnSend records window usage.
func (r *Reno) OnSend(_ time.Duration, s cc.SentInfo) { r.use.OnSend(s, r.cwnd, r.mss) }

// OnAck reduces once per loss episode (ssthresh = max(cwnd/2, 2·MSS), Linux
// tcp_reno_ssthresh; cwnd = ssthresh, RFC 6582 §3.2 step 3's deflated
// window) and otherwise grows: slow start below ssthresh, one MSS per window
// of acknowledged bytes above it (tcp_reno_cong_avoid). No growth in fast
// recovery or when the window is not being used.
func (r *Reno) OnAck(_ time.Duration, rs *cc.RateSample) {
	r.use.OnAck(rs)
	if r.ep.OnAck(rs) {
		r.ssthresh = r.halved()
		r.cwnd = r.ssthresh
		r.ai.Reset()
		return
	}
	if !r.ep.MayGrow() || rs.AckedBytes <= 0 {
		return
	}
	slow := r.cwnd < r.ssthresh
	if !r.use.Limited(r.cwnd, slow) {
		return
	}
	acked := rs.AckedBytes
	if slow {
		if r.cwnd, acked = SlowStart(r.cwnd, r.ssthresh, acked); acked == 0 {
			return
		}
	}
	r.cwnd = r.ai.Grow(r.cwnd, r.cwnd, acked, r.mss)
}

// OnRTO collapses the window to one segment (RFC 5681 §3.1) and, unless the
// window was already reduced for this loss, halves ssthresh from cwnd as
// Linux's tcp_reno_ssthresh does (RFC 5681 eq. 4 uses FlightSize instead).
func (r *Reno) OnRTO(time.Duration) {
	if r.ep.OnRTO() {
		r.ssthresh = r.halved()
	}
	r.cwnd = lossWindowSegments * r.mss
	r.ai.Reset()
}

func (r *Reno) halved() int { return max(r.cwnd/2, cc.MinCWnd(r.mss)) }

// CWnd returns the congestion window in bytes.
func (r *Reno) CWnd() int { return r.cwnd }

// PacingRate is 0: Reno is unpaced.
func (r *Reno) PacingRate() float64 { return 0 }

// Inspect reports cwnd_bytes, ssthresh_bytes (absent while infinite) and
// phase: 0 slow start, 1 congestion avoidance, 2 recovery (fast recovery or
// after a timeout until the repair ends).
func (r *Reno) Inspect() map[string]float64 {
	m := map[string]float64{
		"cwnd_bytes": float64(r.cwnd),
		"phase":      float64(TracePhase(r.ep.Phase(), r.cwnd < r.ssthresh)),
	}
	if r.ssthresh < InfiniteSSThresh {
		m["ssthresh_bytes"] = float64(r.ssthresh)
	}
	return m
}

// Trace phases reported by Inspect.
const (
	PhaseSlowStart  = 0 // window below ssthresh, Open
	PhaseAvoidance  = 1 // window at or above ssthresh, Open
	PhaseRecovering = 2 // fast recovery or timeout repair
)

// TracePhase maps an episode phase and whether the window is in slow start
// to the trace phase reported by Inspect.
func TracePhase(p Phase, slow bool) int {
	switch {
	case p != Open:
		return PhaseRecovering
	case slow:
		return PhaseSlowStart
	default:
		return PhaseAvoidance
	}
}
