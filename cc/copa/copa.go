// Package copa owns Copa congestion control (Arun & Balakrishnan, "Copa:
// Practical Delay-Based Congestion Control for the Internet", NSDI 2018).
//
// Copa steers its window toward the target rate λt = 1/(δ·dq) packets per
// second, where dq = RTT_standing − RTT_min is the queueing delay,
// RTT_standing the smallest RTT over the last srtt/2 and RTT_min the
// smallest over 10 s. On every ACK the window moves by v/(δ·cwnd) packets
// toward the target; the velocity v doubles once the window has moved in
// the same direction for three round trips. At equilibrium a flow keeps
// 1/δ packets queued (2 at the default δ = 0.5). Copa paces at
// 2·cwnd/RTT_standing.
//
// In default mode loss is ignored, as in the authors' implementation
// (genericCC markoviancc.cc, Pantheon's "copa"). With mode switching on
// (§2.2 of the paper) Copa watches whether the queue nearly empties within
// five RTTs; if it does not, a buffer-filling competitor is present and
// Copa enters competitive mode, where 1/δ grows by one per loss-free RTT
// and halves on an RTT with loss (δ never above its default).
package copa

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/cc"
)

const (
	// defaultDelta is δ of the default mode (§2.1: 0.5 "works well").
	defaultDelta = 0.5
	// minRTTWindow is the window of RTT_min (§2.1: 10 s).
	minRTTWindow = 10 * time.Second
	// standingFraction of srtt is RTT_standing's window (§2.1: srtt/2).
	standingFraction = 0.5
	// velocityRounds is how many round trips the window must move in the
	// same direction before the velocity starts doubling (§2.1).
	velocityRounds = 3
	// modeWindowRTTs is the span, in srtt, in which the queue must nearly
	// empty for Copa to stay in default mode (§2.2: five RTTs).
	modeWindowRTTs = 5
	// nearlyEmpty is the fraction of the recent maximum queueing delay
	// below which the queue counts as nearly empty (§2.2: 10%;
	// genericCC rtt-window.cc is_copa).
	nearlyEmpty = 0.1
	// pacingGain paces at 2·cwnd/RTT_standing (§2.1).
	pacingGain = 2
	// minCWndPkts is the window floor (genericCC: max(2, cwnd)).
	minCWndPkts = 2
)

// Modes reported by Inspect under "mode".
const (
	ModeSlowStart   = 0
	ModeDefault     = 1
	ModeCompetitive = 2
)

// Compile-time checks that Copa satisfies the contracts.
var (
	_ cc.Controller = (*Copa)(nil)
	_ cc.Inspector  = (*Copa)(nil)
)

func init() {
	cc.Register(cc.Info{
		Name:        "copa",
		Description: "Copa: delay-based, target rate 1/(δ·dq), velocity, competitive-mode switching",
		Source:      "Arun & Balakrishnan, NSDI 2018; genericCC markoviancc.cc (Pantheon copa)",
		Params:      map[string]float64{"delta": defaultDelta, "mode_switch": 1},
		New:         func(cfg cc.Config) (cc.Controller, error) { return New(cfg) },
	})
}

// Copa is one flow's Copa controller. The window is in packets of mss bytes.
type Copa struct {
	mss        int
	delta0     float64 // default-mode δ
	modeSwitch bool

	cwnd      float64 // packets
	delta     float64
	slowStart bool

	// velocity (§2.1)
	v          float64
	dir        int // +1 up, −1 down, 0 unknown: the last round's direction
	sameRounds int
	roundCWnd  float64 // cwnd at the start of the round
	roundStart int64   // C.delivered marking the round (ends on an ACK of data sent after it)
	rounds     int64

	// RTT filters
	srtt      time.Duration
	rttMin    windowMin // 10 s
	standing  windowMin // srtt/2
	recentMin windowMin // modeWindowRTTs·srtt (mode detection)
	recentMax windowMax

	competitive bool
	lossInRound bool
}

// New builds a Copa controller from cfg (MSS and InitialCWnd set, as cc.New
// does). Params: delta in (0, 1]; mode_switch 0 or 1.
func New(cfg cc.Config) (*Copa, error) {
	if cfg.MSS <= 0 || cfg.InitialCWnd <= 0 {
		return nil, fmt.Errorf("copa: mss %d and initial cwnd %d must be positive", cfg.MSS, cfg.InitialCWnd)
	}
	delta := cfg.Param("delta", defaultDelta)
	if !(delta > 0 && delta <= 1) {
		return nil, fmt.Errorf("copa: parameter delta = %v: must be in (0, 1]", delta)
	}
	ms := cfg.Param("mode_switch", 1)
	if ms != 0 && ms != 1 {
		return nil, fmt.Errorf("copa: parameter mode_switch = %v: must be 0 or 1", ms)
	}
	return newCopa(cfg.MSS, cfg.InitialCWnd, delta, ms == 1), nil
}

// newCopa exposes every knob for tests.
func newCopa(mss, initCWnd int, delta float64, modeSwitch bool) *Copa {
	return &Copa{mss: mss, delta0: delta, modeSwitch: modeSwitch, cwnd: float64(initCWnd),
		delta: delta, slowStart: true, v: 1, roundCWnd: float64(initCWnd)}
}

// OnSend needs nothing: Copa reacts to ACKs only.
func (c *Copa) OnSend(time.Duration, cc.SentInfo) {}

// OnAck updates the RTT filters, moves the window toward the target rate
// and, once per round trip, updates velocity and mode.
func (c *Copa) OnAck(now time.Duration, rs *cc.RateSample) {
	if rs.LostPackets > 0 {
		c.lossInRound = true
	}
	if rs.RTT > 0 {
		c.sampleRTT(now, rs)
	}
	if c.standing.set && rs.AckedPackets > 0 {
		c.steer(float64(rs.AckedPackets))
	}
	if rs.PriorDelivered >= c.roundStart {
		c.endRound(rs.TotalDelivered)
	}
}

// sampleRTT feeds one RTT sample to the filters.
func (c *Copa) sampleRTT(now time.Duration, rs *cc.RateSample) {
	switch {
	case rs.SRTT > 0:
		c.srtt = rs.SRTT
	case c.srtt == 0:
		c.srtt = rs.RTT
	}
	c.rttMin.update(minRTTWindow, now, rs.RTT)
	c.standing.update(time.Duration(standingFraction*float64(c.srtt)), now, rs.RTT)
	win := modeWindowRTTs * c.srtt
	c.recentMin.update(win, now, rs.RTT)
	c.recentMax.update(win, now, rs.RTT)
}

// steer applies acked packets' worth of the per-ACK window update (§2.1
// steps 1–3): compare the current rate cwnd/RTT_standing with the target
// 1/(δ·dq); in slow start double per RTT until the target is exceeded.
func (c *Copa) steer(acked float64) {
	below := c.cwnd/c.standing.get().Seconds() <= c.targetRate()
	switch {
	case c.slowStart && below:
		c.cwnd += acked
	case c.slowStart:
		c.slowStart = false
		fallthrough
	default:
		step := acked * c.v / (c.delta * c.cwnd)
		if below {
			c.cwnd += step
		} else {
			c.cwnd -= step
		}
	}
	c.cwnd = max(c.cwnd, minCWndPkts)
}

// endRound runs the once-per-window updates: velocity (§2.1) and mode
// (§2.2). delivered is C.delivered now, which marks the next round.
func (c *Copa) endRound(delivered int64) {
	c.roundStart = delivered
	c.rounds++
	dir := 0
	switch {
	case c.cwnd > c.roundCWnd:
		dir = 1
	case c.cwnd < c.roundCWnd:
		dir = -1
	}
	if dir != 0 && dir == c.dir && !c.slowStart {
		c.sameRounds++
		if c.sameRounds >= velocityRounds {
			// genericCC caps the velocity at the window.
			c.v = min(2*c.v, max(c.cwnd, 1))
		}
	} else {
		c.v, c.sameRounds = 1, 0
	}
	c.dir = dir
	c.roundCWnd = c.cwnd
	c.updateMode()
	c.lossInRound = false
}

// updateMode is §2.2: default mode while the queue nearly empties within
// five RTTs; otherwise competitive, with 1/δ additive-increase per RTT and
// halved on an RTT with loss, never below the default's 1/δ.
func (c *Copa) updateMode() {
	if !c.modeSwitch || !c.standing.set {
		return
	}
	floor := c.rttMin.get()
	threshold := floor + time.Duration(nearlyEmpty*float64(c.recentMax.get()-floor))
	c.competitive = c.recentMin.get() > threshold
	if !c.competitive {
		c.delta = c.delta0
		return
	}
	inv := 1 / c.delta
	if c.lossInRound {
		inv /= 2
	} else {
		inv++
	}
	c.delta = min(1/inv, c.delta0)
}

// OnRTO resets the velocity; like the authors' implementation Copa keeps
// its window, which the RTT filters steer once ACKs return.
func (c *Copa) OnRTO(time.Duration) {
	c.v, c.sameRounds, c.dir = 1, 0, 0
}

// CWnd is the window in bytes (whole packets).
func (c *Copa) CWnd() int { return int(c.cwnd) * c.mss }

// PacingRate is 2·cwnd/RTT_standing in bytes/s; 0 before the first RTT
// sample.
func (c *Copa) PacingRate() float64 {
	s := c.standing.get()
	if s <= 0 {
		return 0
	}
	return pacingGain * c.cwnd * float64(c.mss) / s.Seconds()
}

// Inspect reports the mode (ModeSlowStart, ModeDefault, ModeCompetitive),
// δ, velocity, the window in packets and the RTT filters in ms.
func (c *Copa) Inspect() map[string]float64 {
	mode := ModeDefault
	switch {
	case c.slowStart:
		mode = ModeSlowStart
	case c.competitive:
		mode = ModeCompetitive
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	return map[string]float64{
		"mode": float64(mode), "delta": c.delta, "velocity": c.v, "cwnd_pkts": c.cwnd,
		"rtt_min_ms": ms(c.rttMin.get()), "rtt_standing_ms": ms(c.standing.get()),
		"queue_delay_ms": ms(c.standing.get() - c.rttMin.get()), "rounds": float64(c.rounds),
	}
}

// targetRate is λt = 1/(δ·dq) in packets/s (+Inf with no queueing delay).
func (c *Copa) targetRate() float64 {
	dq := (c.standing.get() - c.rttMin.get()).Seconds()
	if dq <= 0 {
		return math.Inf(1)
	}
	return 1 / (c.delta * dq)
}
