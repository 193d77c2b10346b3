// Package cubic owns TCP CUBIC congestion control (RFC 9438) as Linux
// implements it in net/ipv4/tcp_cubic.c, with Linux's HyStart slow-start exit
// (on by default) and HyStart++ (RFC 9406) as an alternative.
//
// Windows are counted in bytes; the cubic function works in segments as
// Linux does. CUBIC is unpaced. Params (see Info.Params for defaults):
//
//	hystart           0 off, 1 Linux HyStart (ACK train + delay), 2 HyStart++ (RFC 9406)
//	hystart_detect    Linux HyStart detectors: 1 ACK train, 2 delay, 3 both
//	fast_convergence  1 on, 0 off (RFC 9438 §4.7)
//	tcp_friendliness  1 on, 0 off: the Reno-friendly region (RFC 9438 §4.3)
//
// Where Linux and RFC 9438 differ, this follows Linux: the Reno-friendly
// estimate counts ACKed segments (α = 8/15 per RTT rather than
// 3(1−β)/(1+β) ≈ 0.53 and never switches to α = 1), the target is evaluated
// one min_rtt ahead, and growth is capped at 1.5× per RTT (cnt ≥ 2).
package cubic

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/reno"
)

const (
	// betaScaled/betaScale is CUBIC's multiplicative decrease β = 717/1024
	// ≈ 0.7 (RFC 9438 §4.6; Linux tcp_cubic.c beta, BICTCP_BETA_SCALE).
	betaScaled = 717
	betaScale  = 1024
	// cubicC is the cubic scaling constant C = 0.4 segments/s³ (RFC 9438
	// §5.1; Linux bic_scale 41/1024 scaled by 10 ≈ 0.4004).
	cubicC = 0.4
	// renoAckScale is Linux's beta_scale = 8(1024+β)/3/(1024−β) in integer
	// arithmetic (= 15): the Reno-friendly estimate grows one segment per
	// cwnd·renoAckScale/8 ACKed segments, i.e. α = 8/15 per RTT.
	renoAckScale = 8 * (betaScale + betaScaled) / 3 / (betaScale - betaScaled)
	// maxCntNoWMax caps cnt at 20 (5% growth per RTT) while W_max is
	// unknown (after the first slow start exit or an RTO; Linux
	// bictcp_update, RFC 9438 §4.10).
	maxCntNoWMax = 20
	// minCnt caps growth at one segment per 2 ACKed, 1.5× per RTT (Linux).
	minCnt = 2
	// smallIncCnt is cnt when the target is at or below cwnd: "very small
	// increment" of one segment per 100 windows (Linux).
	smallIncCnt = 100
	// recalcInterval: with an unchanged window, cnt is recomputed at most
	// every HZ/32 (Linux bictcp_update, ≈31 ms).
	recalcInterval = time.Second / 32
	// delayDiscard: RTT samples within 1 s of an epoch start are ignored
	// for delay_min and HyStart ("discard delay samples right after fast
	// recovery", Linux cubictcp_acked).
	delayDiscard = time.Second
	// lossWindowSegments is the window after an RTO (Linux tcp_enter_loss).
	lossWindowSegments = 1
)

// Compile-time checks that Cubic satisfies the contracts.
var (
	_ cc.Controller = (*Cubic)(nil)
	_ cc.Inspector  = (*Cubic)(nil)
)

// HyStart modes for Params["hystart"].
const (
	HyStartOff   = 0 // classic slow start to ssthresh or loss
	HyStartLinux = 1 // Linux tcp_cubic.c HyStart (default)
	HyStartPP    = 2 // HyStart++ (RFC 9406)
)

func init() {
	cc.Register(cc.Info{
		Name:        "cubic",
		Description: "CUBIC: cubic window growth around the last maximum, beta 0.7, HyStart",
		Source:      "RFC 9438, RFC 9406; Linux net/ipv4/tcp_cubic.c",
		Params: map[string]float64{
			"hystart":          HyStartLinux,
			"hystart_detect":   hystartACKTrain | hystartDelay,
			"fast_convergence": 1,
			"tcp_friendliness": 1,
		},
		New: func(cfg cc.Config) (cc.Controller, error) { return New(cfg) },
	})
}

// options are every knob of a Cubic; tests set them directly.
type options struct {
	mss, cwnd, ssthresh int // bytes
	hystart             int // HyStartOff, HyStartLinux or HyStartPP
	detect              int // hystartACKTrain | hystartDelay
	fastConvergence     bool
	friendliness        bool
}

// New builds a CUBIC controller from cfg (MSS and InitialCWnd must be set,
// as cc.New does).
func New(cfg cc.Config) (*Cubic, error) {
	if cfg.MSS <= 0 || cfg.InitialCWnd <= 0 {
		return nil, fmt.Errorf("cubic: mss %d and initial cwnd %d must be positive", cfg.MSS, cfg.InitialCWnd)
	}
	o := options{
		mss: cfg.MSS, cwnd: cfg.InitialCWnd * cfg.MSS, ssthresh: reno.InfiniteSSThresh,
		hystart: int(cfg.Param("hystart", HyStartLinux)),
		detect:  int(cfg.Param("hystart_detect", hystartACKTrain|hystartDelay)),
	}
	if o.hystart < HyStartOff || o.hystart > HyStartPP || float64(o.hystart) != cfg.Param("hystart", HyStartLinux) {
		return nil, fmt.Errorf("cubic: param hystart = %v: allowed 0 (off), 1 (Linux HyStart), 2 (HyStart++)", cfg.Param("hystart", 1))
	}
	if o.detect < 0 || o.detect > hystartACKTrain|hystartDelay || float64(o.detect) != cfg.Param("hystart_detect", 3) {
		return nil, fmt.Errorf("cubic: param hystart_detect = %v: allowed 0..3 (1 ACK train, 2 delay)", o.detect)
	}
	var err error
	if o.fastConvergence, err = flag(cfg, "fast_convergence"); err != nil {
		return nil, err
	}
	if o.friendliness, err = flag(cfg, "tcp_friendliness"); err != nil {
		return nil, err
	}
	return newCubic(o), nil
}

// flag reads a 0/1 parameter that defaults to 1.
func flag(cfg cc.Config, name string) (bool, error) {
	switch v := cfg.Param(name, 1); v {
	case 0, 1:
		return v == 1, nil
	default:
		return false, fmt.Errorf("cubic: param %s = %v: allowed 0 or 1", name, v)
	}
}

// Cubic is one flow's CUBIC controller.
type Cubic struct {
	opt      options
	mss      int
	cwnd     int // bytes
	ssthresh int // bytes
	ai       reno.AI
	ep       reno.Episodes
	use      reno.Usage
	fn       function // the cubic function's state (bictcp)
	delayMin time.Duration
	lastSend time.Duration
	// delivered is the connection's delivered bytes at the last ACK, where
	// a HyStart round restarted by an RTO ends.
	delivered int64
	hy        hystart
	hpp       hystartPP
	rtos      int // retransmission timeouts seen
}

func newCubic(o options) *Cubic {
	c := &Cubic{opt: o, mss: o.mss, cwnd: o.cwnd, ssthresh: o.ssthresh}
	c.hy.reset(0, 0)
	c.hpp.init()
	return c
}

// OnSend records window usage and, when the flow restarts after an idle
// period, shifts the epoch so the cubic curve resumes where it paused
// (Linux cubictcp_cwnd_event, CA_EVENT_TX_START).
func (c *Cubic) OnSend(now time.Duration, s cc.SentInfo) {
	if s.Inflight <= s.Bytes && c.fn.epochSet && now > c.lastSend {
		c.fn.epochStart = min(c.fn.epochStart+now-c.lastSend, now)
	}
	c.lastSend = now
	c.use.OnSend(s, c.cwnd, c.mss)
}

// OnAck reduces once per loss episode and otherwise measures delay, runs
// the slow-start exit detector and grows the window.
func (c *Cubic) OnAck(now time.Duration, rs *cc.RateSample) {
	c.use.OnAck(rs)
	c.delivered = rs.TotalDelivered
	if c.ep.OnAck(rs) {
		c.reduce()
		c.cwnd = c.ssthresh
		c.ai.Reset()
		c.hpp.finish()
		return
	}
	c.acked(now, rs)
	if !c.ep.MayGrow() || rs.AckedBytes <= 0 {
		return
	}
	slow := c.cwnd < c.ssthresh
	if !c.use.Limited(c.cwnd, slow) {
		return
	}
	acked := rs.AckedBytes
	if slow {
		if c.opt.hystart == HyStartPP && c.hpp.active() {
			c.cwnd, _ = reno.SlowStart(c.cwnd, c.ssthresh, c.hpp.increase(acked, c.mss))
			return
		}
		if c.cwnd, acked = reno.SlowStart(c.cwnd, c.ssthresh, acked); acked == 0 {
			return
		}
	}
	c.fn.update(now, c.cwnd, acked, c.mss, c.delayMin, c.opt.friendliness)
	c.cwnd = c.ai.Grow(c.cwnd, int(c.fn.cnt*float64(c.mss)), acked, c.mss)
}

// acked is Linux's cubictcp_acked: track delay_min and run HyStart on RTT
// samples, except right after an epoch start.
func (c *Cubic) acked(now time.Duration, rs *cc.RateSample) {
	if rs.RTT <= 0 {
		return
	}
	if c.fn.epochSet && now-c.fn.epochStart < delayDiscard {
		return
	}
	if c.delayMin == 0 || rs.RTT < c.delayMin {
		c.delayMin = rs.RTT
	}
	if c.cwnd >= c.ssthresh {
		return
	}
	switch c.opt.hystart {
	case HyStartLinux:
		if !c.hy.found && c.cwnd >= hystartLowWindow*c.mss &&
			c.hy.update(now, rs, c.delayMin, c.cwnd, c.opt.detect) {
			c.ssthresh = c.cwnd
		}
	case HyStartPP:
		if c.hpp.onAck(rs) {
			c.ssthresh = c.cwnd
		}
	}
}

// reduce is Linux's cubictcp_recalc_ssthresh: end the epoch, remember
// W_max (lowered by fast convergence when the window shrank since the last
// loss, RFC 9438 §4.7) and set ssthresh = β·cwnd.
func (c *Cubic) reduce() {
	c.fn.epochSet = false
	w := float64(c.cwnd) / float64(c.mss)
	if w < c.fn.wMax && c.opt.fastConvergence {
		c.fn.wMax = w * (betaScale + betaScaled) / (2 * betaScale)
	} else {
		c.fn.wMax = w
	}
	c.ssthresh = max(c.cwnd*betaScaled/betaScale, cc.MinCWnd(c.mss))
}

// OnRTO is Linux's tcp_enter_loss with cubictcp_state(TCP_CA_Loss): ssthresh
// from β (unless already reduced for this loss), cwnd = 1 MSS, and a full
// reset of the cubic state (W_max, epoch, delay_min) and of HyStart.
func (c *Cubic) OnRTO(now time.Duration) {
	if c.ep.OnRTO() {
		c.reduce()
	}
	c.rtos++
	c.cwnd = lossWindowSegments * c.mss
	c.ai.Reset()
	c.fn = function{kShrink: c.fn.kShrink}
	c.delayMin = 0
	c.hy.found = false
	c.hy.reset(now, c.delivered)
	c.hpp.finish()
}

// SetKScale makes K, the time the cubic curve of an epoch takes to climb
// back to W_max, scale·K for the epochs that start from now on; an epoch
// already running keeps its K. CUBIC never calls it (scale 1). It is the
// hook for SaTCP, whose kernel module starts epochs inside a
// handover-warned window with K − K·8/9 = K/9 (XuyangCaoUCSD/LeoEM
// emulation_stage/satcp/tcp_cubic.c, bictcp_update). scale must be in
// (0, 1]. It is cheap enough to call on every ACK.
func (c *Cubic) SetKScale(scale float64) {
	if !(scale > 0 && scale <= 1) {
		panic(fmt.Sprintf("leolab BUG: cubic K scale %v outside (0, 1]", scale))
	}
	c.fn.kShrink = 1 - scale
}

// SetCWnd replaces the congestion window with bytes (at least
// cc.MinCWnd); CUBIC keeps its epoch, W_max and ssthresh and grows from
// the new window on the next ACK. CUBIC never calls it: it is the hook for
// Orca, whose agent overwrites the kernel's snd_cwnd every monitor period
// (Abbasloo et al., SIGCOMM 2020, §4; Soheil-ab/Orca's TCP_CWND
// setsockopt).
func (c *Cubic) SetCWnd(bytes int) { c.cwnd = max(bytes, cc.MinCWnd(c.mss)) }

// InSlowStart tells that the window is below ssthresh (slow start).
func (c *Cubic) InSlowStart() bool { return c.cwnd < c.ssthresh }

// CWnd returns the congestion window in bytes.
func (c *Cubic) CWnd() int { return c.cwnd }

// PacingRate is 0: CUBIC is unpaced.
func (c *Cubic) PacingRate() float64 { return 0 }

// Inspect reports cwnd_bytes, ssthresh_bytes (absent while infinite),
// w_max_bytes, k_s, cnt (ACKed segments per one-segment increase),
// reno_cwnd_bytes (the Reno-friendly estimate), delay_min_ms,
// hystart_found, css (HyStart++ conservative slow start, 0/1), rtos (the
// retransmission timeouts so far, cumulative) and phase: 0 slow start
// (including CSS), 1 congestion avoidance, 2 recovery.
func (c *Cubic) Inspect() map[string]float64 {
	mss := float64(c.mss)
	m := map[string]float64{
		"cwnd_bytes":      float64(c.cwnd),
		"w_max_bytes":     c.fn.wMax * mss,
		"k_s":             c.fn.k,
		"cnt":             c.fn.cnt,
		"reno_cwnd_bytes": float64(c.fn.renoCWnd),
		"delay_min_ms":    float64(c.delayMin) / float64(time.Millisecond),
		"hystart_found":   cc.Flag(c.hy.found),
		"css":             cc.Flag(c.hpp.css),
		"rtos":            float64(c.rtos),
		"phase":           float64(reno.TracePhase(c.ep.Phase(), c.cwnd < c.ssthresh)),
	}
	if c.ssthresh < reno.InfiniteSSThresh {
		m["ssthresh_bytes"] = float64(c.ssthresh)
	}
	return m
}
