// Package vivace owns PCC Vivace congestion control (Dong et al., "PCC
// Vivace: Online-Learning Congestion Control", NSDI 2018), registered as
// "pcc" (the name in the real Starlink dataset) and "vivace".
//
// Vivace is rate based. It sends in monitor intervals (MIs) of about one
// RTT, each at one rate, and scores each with the utility
// u = x^0.9 − 900·x·dRTT/dT − 11.35·x·L (x in Mbit/s, dRTT/dT the RTT
// slope over the MI, L its loss rate). It starts by doubling the rate per
// MI until utility drops, then probes r(1+ε) and r(1−ε) twice in random
// order; when both pairs agree it moves the rate along the utility
// gradient, Δr = m·θ0·γ (m the number of consecutive moves in the same
// direction), bounded by the dynamic change boundary ω·r, and keeps moving
// while utility improves. The structure of MIs follows the authors'
// PCC-Uspace (pcc_vivace_sender.cpp): one scored MI at a time in starting
// and moving, four while probing, and unscored MIs at the current rate in
// between while results are awaited.
//
// The window is a safety net: 2·rate·SRTT, at least four segments (as the
// PCC kernel module's pcc_set_cwnd).
package vivace

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/leolab/leolab/cc"
)

const (
	// minPacketsPerMI lengthens an MI at low rates so that it holds enough
	// packets to measure loss (PCC-Uspace pcc_sender.cpp
	// kMinimumPacketsPerInterval).
	minPacketsPerMI = 20
	// minCWndSegs is the window floor (PCC-Kernel tcp_pcc.c pcc_set_cwnd:
	// max(4, ...)); cwndGain the window in rate × SRTT (same function).
	minCWndSegs = 4
	cwndGain    = 2
	// minRate is the lowest sending rate, 500 kbit/s in bytes/s
	// (pcc_vivace_sender.cpp kMinSendingRate).
	minRate = 500e3 / 8
)

// Modes reported by Inspect under "mode".
const (
	ModeStarting = 0 // doubling per MI until utility drops
	ModeProbing  = 1 // four MIs at r(1±ε)
	ModeMoving   = 2 // moving along the gradient while utility improves
)

// Compile-time checks that Vivace satisfies the contracts.
var (
	_ cc.Controller = (*Vivace)(nil)
	_ cc.Inspector  = (*Vivace)(nil)
)

func init() {
	for _, name := range []string{"pcc", "vivace"} {
		desc := "PCC Vivace: online learning of the rate on a latency-aware utility (gradient ascent)"
		if name == "vivace" {
			desc = "alias of pcc (PCC Vivace)"
		}
		cc.Register(cc.Info{
			Name:        name,
			Description: desc,
			Source:      "Dong et al., PCC Vivace, NSDI 2018; PCCproject/PCC-Uspace pcc_vivace_sender.cpp",
			Params:      map[string]float64{"epsilon": defaultEpsilon, "theta0": defaultTheta0},
			New:         func(cfg cc.Config) (cc.Controller, error) { return New(cfg) },
		})
	}
}

// Vivace is one flow's PCC Vivace controller. Rates are in bytes/s.
type Vivace struct {
	mss      int
	initWnd  int
	eps      float64
	theta0   float64
	rng      *rand.Rand
	srtt     time.Duration
	started  bool
	sent     int64 // cumulative bytes sent
	resolved int64 // cumulative bytes acknowledged or declared lost

	rate float64 // the central (current) rate
	mode int

	// the scored MIs of this round: plan holds their rates, mis their
	// measurements; cur MIs have finished sending, and open tells whether
	// mis[cur] is being sent.
	plan  [4]float64
	mis   [4]monitor
	nPlan int
	cur   int
	open  bool

	learner
}

// New builds a Vivace controller from cfg (MSS, InitialCWnd and Rand set, as
// cc.New does). Params: epsilon in (0, 0.5), theta0 > 0.
func New(cfg cc.Config) (*Vivace, error) {
	if cfg.MSS <= 0 || cfg.InitialCWnd <= 0 || cfg.Rand == nil {
		return nil, fmt.Errorf("vivace: mss %d, initial cwnd %d and a random stream are required", cfg.MSS, cfg.InitialCWnd)
	}
	eps := cfg.Param("epsilon", defaultEpsilon)
	if !(eps > 0 && eps < 0.5) {
		return nil, fmt.Errorf("vivace: parameter epsilon = %v: must be in (0, 0.5)", eps)
	}
	theta0 := cfg.Param("theta0", defaultTheta0)
	if !(theta0 > 0 && theta0 < 1e6) {
		return nil, fmt.Errorf("vivace: parameter theta0 = %v: must be in (0, 1e6)", theta0)
	}
	return &Vivace{mss: cfg.MSS, initWnd: cfg.InitialCWnd, eps: eps, theta0: theta0, rng: cfg.Rand,
		learner: newLearner()}, nil
}

// OnSend closes and opens MIs as their time comes.
func (v *Vivace) OnSend(now time.Duration, s cc.SentInfo) {
	if v.started {
		v.advance(now)
	}
	v.sent += int64(s.Bytes)
}

// advance ends the MI being sent once its time is over and begins the next
// planned one; after the last, unscored traffic goes at the central rate.
func (v *Vivace) advance(now time.Duration) {
	if v.open && now >= v.mis[v.cur].end {
		v.mis[v.cur].endOff = v.sent
		v.cur++
		v.open = false
	}
	if !v.open && v.cur < v.nPlan {
		v.mis[v.cur].begin(v.plan[v.cur], now, v.miDuration(v.plan[v.cur]), v.sent)
		v.open = true
	}
}

// miDuration is one SRTT, long enough for minPacketsPerMI packets.
func (v *Vivace) miDuration(rate float64) time.Duration {
	return max(v.srtt, time.Duration(minPacketsPerMI*float64(v.mss)/rate*float64(time.Second)))
}

// OnAck attributes the ACK to its MI and decides once the round's MIs are
// all resolved.
func (v *Vivace) OnAck(now time.Duration, rs *cc.RateSample) {
	switch {
	case rs.SRTT > 0:
		v.srtt = rs.SRTT
	case rs.RTT > 0 && v.srtt == 0:
		v.srtt = rs.RTT
	}
	before := v.resolved
	v.resolved += int64(rs.AckedBytes + rs.LostBytes)
	if !v.started {
		if v.srtt > 0 {
			v.start()
		}
		return
	}
	for i := range v.nPlan {
		if v.mis[i].holds(before) {
			v.mis[i].add(now, rs)
			break
		}
	}
	if v.cur == v.nPlan && v.resolved >= v.mis[v.nPlan-1].endOff {
		v.decide()
	}
}

// start sets the first rate, the initial window over the first RTT, and
// plans the first starting MI.
func (v *Vivace) start() {
	v.started = true
	v.rate = max(float64(v.initWnd*v.mss)/v.srtt.Seconds(), minRate)
	v.mode = ModeStarting
	v.planRound()
}

// planRound lays out the scored MIs for the current mode: one at the rate,
// or in probing two pairs at r(1+ε), r(1−ε), each pair in random order.
func (v *Vivace) planRound() {
	v.cur, v.open = 0, false
	v.mis = [4]monitor{}
	if v.mode != ModeProbing {
		v.plan[0], v.nPlan = v.rate, 1
		return
	}
	hi, lo := v.rate*(1+v.eps), v.rate*(1-v.eps)
	for j := 0; j < 4; j += 2 {
		if v.rng.IntN(2) == 0 {
			v.plan[j], v.plan[j+1] = hi, lo
		} else {
			v.plan[j], v.plan[j+1] = lo, hi
		}
	}
	v.nPlan = 4
}

// OnRTO discards the round (its accounting is broken by the mass loss
// marking) and probes again around the current rate.
func (v *Vivace) OnRTO(time.Duration) {
	if !v.started {
		return
	}
	v.mode = ModeProbing
	v.resetMoves()
	v.planRound()
}

// PacingRate is the rate of the MI being sent, else the central rate; 0
// (unpaced initial window) before the first RTT sample.
func (v *Vivace) PacingRate() float64 {
	if !v.started {
		return 0
	}
	if v.open {
		return v.mis[v.cur].rate
	}
	return v.rate
}

// CWnd is 2·rate·SRTT, at least four segments; the initial window before
// the first RTT sample.
func (v *Vivace) CWnd() int {
	if !v.started {
		return v.initWnd * v.mss
	}
	return max(int(cwndGain*v.PacingRate()*v.srtt.Seconds()), minCWndSegs*v.mss)
}

// Inspect reports the mode (ModeStarting, ModeProbing, ModeMoving), the
// central rate in Mbit/s, the last utility, the move direction and count,
// and the change-boundary steps.
func (v *Vivace) Inspect() map[string]float64 {
	return map[string]float64{
		"mode": float64(v.mode), "rate_mbps": v.rate * 8 / bitsPerMbit, "utility": v.lastUtility,
		"direction": float64(v.dir), "moves": float64(v.moves), "boundary_steps": float64(v.steps),
	}
}
