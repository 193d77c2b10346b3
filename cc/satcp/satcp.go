// Package satcp owns SaTCP ("satcp"), the link-layer informed CUBIC of
// X. Cao and X. Zhang, INFOCOM'23, after its authors' kernel module in
// XuyangCaoUCSD/LeoEM emulation_stage/satcp (a modified Linux tcp_cubic.c
// with a netlink handover flag set by report_relay.c).
//
// Outside warned windows SaTCP is this repository's CUBIC (cc/cubic,
// wrapped unchanged). A handover warning comes from the path's
// reconfiguration schedule (cc.Config.Schedule): for each boundary b,
// predicted as b + e with e drawn uniformly from [−error_s, error_s], the
// flag is up during [b+e−lead_s, b+e−lead_s+duration_s] (the report is sent
// T_earlier = 0.5 s early and the inhibition lasts D = 2.3 s). Inside the
// window:
//
//   - A cubic epoch that starts (after fast recovery or a warned RTO)
//     reaches W_max in K/9 instead of K (tcp_cubic.c bictcp_update:
//     bic_K −= bic_K·8/9), through cubic.Cubic.SetKScale.
//   - keep_cwnd = 1 (default): an RTO resets nothing. cwnd, ssthresh and
//     CUBIC's state (W_max, epoch, delay_min, HyStart) stay as they were and
//     the transport only retransmits, within the kept window; CUBIC does
//     not grow until the timeout's repair ends. This reads issue 4's "skips
//     the RTO/loss state reset for the warned window" as the RTO's whole
//     reset: the warning says the loss is the handover's, not congestion.
//   - keep_cwnd = 0: the kernel module's behaviour. bictcp_state skips
//     bictcp_reset on TCP_CA_Loss, so W_max, the epoch, delay_min and
//     HyStart survive, but Linux's tcp_enter_loss (outside the module)
//     still applies: cwnd 1 segment, ssthresh β·cwnd, slow start to it,
//     then the K/9 epoch toward the kept W_max.
//
// Params: keep_cwnd, lead_s, duration_s, error_s, and CUBIC's (see
// cc/cubic). Without a schedule no warning is ever raised and SaTCP is
// CUBIC.
//
// Departure (keep_cwnd = 0): the wrapped CUBIC's window is not reachable
// from here, so the regrowth after a warned RTO runs in this wrapper (its
// own slow start and cubic curve toward the saved W_max) while the inner
// CUBIC, which never saw the RTO, waits at its pre-RTO window; control
// returns to it when the regrowth reaches that window.
package satcp

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cubic"
	"github.com/leolab/leolab/cc/reno"
)

// SaTCP's constants (XuyangCaoUCSD/LeoEM emulation_stage) and the CUBIC
// ones its regrowth uses (RFC 9438; Linux tcp_cubic.c).
const (
	// defLead: reports are sent 0.5 s before the predicted event
	// (emulator.py status_report_delayed_shift = −0.5).
	defLead = 500 * time.Millisecond
	// defDuration: the inhibition lasts 2.3 s (report_relay.c SATCP_DURATION).
	defDuration = 2300 * time.Millisecond
	// kScale: K shrinks to K − 8K/9 = K/9 in a warned window (tcp_cubic.c
	// bictcp_update under handover_status).
	kScale = 1.0 / 9
	// beta = 717/1024 ≈ 0.7 (RFC 9438 §4.6; tcp_cubic.c beta).
	beta = 717.0 / 1024
	// cubicC = 0.4 segments/s³ (RFC 9438 §5.1).
	cubicC = 0.4
	// minCnt: at most one segment per 2 ACKed, 1.5× per RTT (tcp_cubic.c).
	minCnt = 2
	// smallIncCnt: one segment per 100 windows at or above the target.
	smallIncCnt = 100
	// lossWindowSegs: cwnd after an RTO (Linux tcp_enter_loss).
	lossWindowSegs = 1
	// defKeepCWnd: an RTO in a warned window keeps cwnd and ssthresh
	// (issue 4 Build, SaTCP: "skips the RTO/loss state reset for the
	// warned window"); 0 is the LeoEM module's tcp_enter_loss window.
	defKeepCWnd = 1
)

// SaTCP is one flow's controller.
type SaTCP struct {
	inner *cubic.Cubic
	mss   int
	sched cc.Schedule
	lead  time.Duration
	dur   time.Duration
	err   time.Duration
	rng   *rand.Rand
	fc    bool // fast convergence, as the wrapped CUBIC
	keep  bool // keep_cwnd: a warned RTO resets nothing

	win     [2]time.Duration // current warned window [start, end]
	winFor  time.Duration    // its boundary; valid if haveWin
	haveWin bool
	flag    bool // warned at the last ACK or RTO

	active   bool // regrowing after a warned RTO
	cwnd     int  // bytes, while active
	ssthresh int
	wMax     float64 // segments
	epoch    time.Duration
	epochSet bool
	k        float64 // s
	origin   float64 // segments
	minRTT   time.Duration
	ai       reno.AI
	ep       reno.Episodes
	use      reno.Usage

	rtos, skipped int
}

var _ cc.Inspector = (*SaTCP)(nil)

func init() {
	params := map[string]float64{"lead_s": defLead.Seconds(), "duration_s": defDuration.Seconds(), "error_s": 0,
		"keep_cwnd": defKeepCWnd}
	ci, ok := cc.Lookup("cubic")
	if !ok {
		panic("leolab BUG: satcp needs cubic registered")
	}
	for k, v := range ci.Params {
		params[k] = v
	}
	cc.Register(cc.Info{
		Name:        "satcp",
		Description: "SaTCP: CUBIC told of handovers; in a warned window an RTO keeps cwnd, ssthresh and CUBIC state (keep_cwnd=0: only CUBIC state, as LeoEM) and epochs regrow with K/9",
		Source:      "Cao & Zhang, SaTCP, IEEE INFOCOM 2023; XuyangCaoUCSD/LeoEM emulation_stage/satcp/tcp_cubic.c",
		Params:      params,
		New:         func(cfg cc.Config) (cc.Controller, error) { return New(cfg) },
	})
}

// New builds a SaTCP controller (cfg as cc.New completes it).
func New(cfg cc.Config) (*SaTCP, error) {
	inner, err := cubic.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("satcp: %w", err)
	}
	s := &SaTCP{inner: inner, mss: cfg.MSS, sched: cfg.Schedule, rng: cfg.Rand,
		lead: secs(cfg.Param("lead_s", defLead.Seconds())), dur: secs(cfg.Param("duration_s", defDuration.Seconds())),
		err: secs(cfg.Param("error_s", 0)), fc: cfg.Param("fast_convergence", 1) == 1}
	switch k := cfg.Param("keep_cwnd", defKeepCWnd); k {
	case 0, 1:
		s.keep = k == 1
	default:
		return nil, fmt.Errorf("satcp: param keep_cwnd = %v: allowed 0 or 1", k)
	}
	if s.lead < 0 || s.dur <= 0 || s.err < 0 || (s.err > 0 && s.rng == nil) {
		return nil, fmt.Errorf("satcp: lead_s %v and error_s %v must be ≥ 0 and duration_s %v > 0", s.lead, s.err, s.dur)
	}
	return s, nil
}

func secs(v float64) time.Duration { return time.Duration(v * float64(time.Second)) }

// warned tells whether the handover flag is up at now.
func (s *SaTCP) warned(now time.Duration) bool {
	if s.sched == nil {
		return false
	}
	for !s.haveWin || now > s.win[1] {
		from := now - s.dur
		if s.haveWin {
			from = s.winFor + 1
		}
		b := s.sched.Next(max(from, 0))
		if b < 0 {
			return false
		}
		e := time.Duration(0)
		if s.err > 0 {
			e = time.Duration((2*s.rng.Float64() - 1) * float64(s.err))
		}
		s.winFor, s.haveWin = b, true
		s.win = [2]time.Duration{b + e - s.lead, b + e - s.lead + s.dur}
	}
	return now >= s.win[0]
}

// OnSend passes the send to CUBIC and tracks window use while regrowing.
func (s *SaTCP) OnSend(now time.Duration, si cc.SentInfo) {
	s.inner.OnSend(now, si)
	if s.active {
		s.use.OnSend(si, s.cwnd, s.mss)
	}
}

// OnAck runs CUBIC, whose epochs starting in a warned window get K/9,
// and, after a warned RTO with keep_cwnd = 0, the regrowth toward W_max.
func (s *SaTCP) OnAck(now time.Duration, rs *cc.RateSample) {
	s.flag = s.warned(now)
	if s.flag {
		s.inner.SetKScale(kScale)
	} else {
		s.inner.SetKScale(1)
	}
	s.inner.OnAck(now, rs)
	if !s.active {
		return
	}
	s.use.OnAck(rs)
	if rs.RTT > 0 && (s.minRTT == 0 || rs.RTT < s.minRTT) {
		s.minRTT = rs.RTT
	}
	if s.ep.OnAck(rs) {
		s.reduce()
		s.cwnd = s.ssthresh
		return
	}
	if s.ep.MayGrow() && rs.AckedBytes > 0 && s.use.Limited(s.cwnd, s.cwnd < s.ssthresh) {
		s.grow(now, rs.AckedBytes)
	}
	if s.cwnd >= s.inner.CWnd() {
		s.active = false // CUBIC, which kept its state, takes over
	}
}
