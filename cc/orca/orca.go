package orca

import (
	_ "embed"
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cubic"
	"github.com/leolab/leolab/cc/monitor"
	"github.com/leolab/leolab/learn/actor"
)

// Control constants (Soheil-ab/Orca src/orca-server-mahimahi.cc and
// rl-module/envwrapper.py).
const (
	// MonitorPeriod is Orca's report period (the server's report_period,
	// 20 ms).
	MonitorPeriod = 20 * time.Millisecond
	// actionBase: cwnd ← cwnd·4^a (envwrapper.py map_action: 4^a as a
	// percentage of the kernel's cwnd), i.e. 2^(2a), a ∈ [−1, 1].
	actionBase = 4
	// minCWndSegs and maxCWndSegs bound the window the agent sets
	// (orca-server-mahimahi.cc MIN_CWND 4, MAX_CWND 10000).
	minCWndSegs = 4
	maxCWndSegs = 10000
	// ParamModel names an actor file (cc.Config.Files) replacing the
	// embedded one.
	ParamModel = "model"
)

//go:embed actor.json
var defaultActorJSON []byte

// DefaultActor is the embedded trained actor (a fresh copy each call).
func DefaultActor() *actor.Actor {
	a, _ := configActor(cc.Config{})
	return a
}

// configActor is the actor of cfg: its model file or the embedded one.
func configActor(cfg cc.Config) (*actor.Actor, error) {
	return actor.FromConfig(cfg, ParamModel, "orca", StateDim, "cc/orca/actor.json", defaultActorJSON)
}

// DefaultActorFile is the embedded actor file's contents.
func DefaultActorFile() []byte { return defaultActorJSON }

func init() {
	cc.Register(cc.Info{
		Name:        "orca",
		Description: "Orca: CUBIC whose window a TD3 actor scales by 4^a every 20 ms; retrained here; the authors' weights are not used",
		Source:      "Abbasloo et al., SIGCOMM 2020 (Classic Meets Modern); Soheil-ab/Orca; weights: leolab learn train-cca orca",
		Params:      map[string]float64{},
		Files:       map[string]string{ParamModel: "Orca actor weights (leolab-actor JSON, learn/actor; leolab learn train-cca orca --out)"},
		New: func(cfg cc.Config) (cc.Controller, error) {
			a, err := configActor(cfg)
			if err != nil {
				return nil, err
			}
			ccfg := cfg
			ccfg.Params, ccfg.Files = nil, nil
			return New(ccfg, actor.Decider{A: a})
		},
	})
}

// Decider picks the action of one monitor period from the period's
// measurements, the actor's input state (len StateDim, valid during the
// call only) and the reward of the period (the outcome of the previous
// action). The registered controller's decider is its actor
// (actor.Decider); a training environment's records transitions and
// explores.
type Decider interface {
	Decide(now time.Duration, iv *monitor.Interval, state []float32, reward float32) float32
}

// Orca is one flow's controller.
type Orca struct {
	cub    *cubic.Cubic
	mon    *monitor.Monitor
	feat   features
	dec    Decider
	mss    int
	acting bool // CUBIC has left slow start once
	last   float32
	steps  int
}

var (
	_ cc.Controller = (*Orca)(nil)
	_ cc.Inspector  = (*Orca)(nil)
)

// New builds Orca over CUBIC (built from cfg) with decider d.
func New(cfg cc.Config, d Decider) (*Orca, error) {
	if d == nil {
		return nil, fmt.Errorf("orca: nil decider")
	}
	c, err := cubic.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("orca: %w", err)
	}
	return &Orca{cub: c, mon: monitor.New(MonitorPeriod), dec: d, mss: cfg.MSS}, nil
}

// OnSend passes the send to CUBIC.
func (o *Orca) OnSend(now time.Duration, s cc.SentInfo) { o.cub.OnSend(now, s) }

// OnAck lets CUBIC process the ACK and, when it closes a monitor period,
// runs one agent step.
func (o *Orca) OnAck(now time.Duration, rs *cc.RateSample) {
	o.cub.OnAck(now, rs)
	if o.mon.OnAck(now, rs, o.cub.CWnd()) {
		o.step(now)
	}
}

// step observes the closed period and, once CUBIC has left its first slow
// start (orca-server-mahimahi.cc slow_start_passed), applies the
// decider's action: cwnd ← cwnd·4^a within [4, 10000] segments.
func (o *Orca) step(now time.Duration) {
	iv := o.mon.Last()
	ss := o.cub.InSlowStart()
	r := o.feat.observe(iv, ss, o.mss)
	if !o.acting {
		if ss {
			return
		}
		o.acting = true
	}
	a := o.dec.Decide(now, iv, o.feat.state(), r)
	if !(a >= -1 && a <= 1) { // NaN included
		a = max(-1, min(1, a))
		if a != a {
			a = 0
		}
	}
	o.last = a
	o.steps++
	w := float64(o.cub.CWnd()) * math.Pow(actionBase, float64(a))
	w = max(minCWndSegs*float64(o.mss), min(maxCWndSegs*float64(o.mss), w))
	o.cub.SetCWnd(int(w))
}

// OnRTO passes the timeout to CUBIC.
func (o *Orca) OnRTO(now time.Duration) { o.cub.OnRTO(now) }

// CWnd is CUBIC's window as the agent last set it and CUBIC grew it.
func (o *Orca) CWnd() int { return o.cub.CWnd() }

// PacingRate is 0: Orca is unpaced, as CUBIC.
func (o *Orca) PacingRate() float64 { return 0 }

// Inspect reports CUBIC's state plus action (the last a), agent_steps and
// max_thr_mbps (the throughput normalising the state).
func (o *Orca) Inspect() map[string]float64 {
	m := o.cub.Inspect()
	m["action"] = float64(o.last)
	m["agent_steps"] = float64(o.steps)
	m["max_thr_mbps"] = o.feat.peak.Max() * 8 / 1e6
	return m
}
