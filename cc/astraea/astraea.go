package astraea

import (
	_ "embed"
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/monitor"
	"github.com/leolab/leolab/learn/actor"
)

// Control constants (ours, see the package doc, except where cited).
const (
	// MonitorPeriod is the agent's period, Orca's 20 ms (the monitor
	// package's fixed periods).
	MonitorPeriod = 20 * time.Millisecond
	// The action a ∈ [−1, 1] moves the window additively up and
	// multiplicatively down: a ≥ 0 adds a·aiSegs segments, a < 0
	// multiplies by 2^(mdExp·a) (at most ÷√2 per period). Whatever the
	// policy, flows that see the same congestion signals then move as
	// AIMD does, which converges to equal windows (Chiu and Jain 1989);
	// a purely multiplicative action keeps the flows' ratio.
	aiSegs = 2
	mdExp  = 0.5
	// minCWndSegs and maxCWndSegs bound the window (Orca's MIN_CWND and
	// MAX_CWND, Soheil-ab/Orca orca-server-mahimahi.cc).
	minCWndSegs = 4
	maxCWndSegs = 10000
	// ssExitDelay ends slow start once a period's mean RTT exceeds
	// 1.25·min_rtt (the reward's delay margin): a queue has built.
	ssExitDelay = delayMargin
	// pacingSS and pacingCA: pacing at Linux's 200 % of cwnd/srtt in
	// slow start and 120 % after (net/ipv4/tcp_input.c
	// tcp_update_pacing_rate; sysctls tcp_pacing_ss_ratio and
	// tcp_pacing_ca_ratio).
	pacingSS, pacingCA = 2.0, 1.2
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
	return actor.FromConfig(cfg, ParamModel, "astraea", StateDim, "cc/astraea/actor.json", defaultActorJSON)
}

// DefaultActorFile is the embedded actor file's contents.
func DefaultActorFile() []byte { return defaultActorJSON }

func init() {
	cc.Register(cc.Info{
		Name:        "astraea",
		Description: "Astraea: a shared per-flow policy moves cwnd every 20 ms (up by ≤ 2 segments, down by ≤ ÷√2), trained on multi-flow dumbbells for fairness; retrained here; the authors' weights are not used",
		Source:      "Liao et al., EuroSys 2024 (Astraea: Towards Fair and Efficient Learning-based Congestion Control, arXiv 2403.01798); weights: leolab learn train-cca astraea",
		Params:      map[string]float64{},
		Files:       map[string]string{ParamModel: "Astraea actor weights (leolab-actor JSON of input 30, learn/actor; leolab learn train-cca astraea --out)"},
		New: func(cfg cc.Config) (cc.Controller, error) {
			a, err := configActor(cfg)
			if err != nil {
				return nil, err
			}
			return New(cfg, actor.Decider{A: a})
		},
	})
}

// Decider picks a period's action (learn/rlenv's and cc/orca's Decider).
type Decider interface {
	Decide(now time.Duration, iv *monitor.Interval, state []float32, reward float32) float32
}

// Astraea is one flow's controller.
type Astraea struct {
	mon     *monitor.Monitor
	feat    features
	dec     Decider
	mss     int
	cwnd    int
	slow    bool // in the initial slow start
	srtt    time.Duration
	last    float32
	steps   int
	minCWnd int
	maxCWnd int
}

var (
	_ cc.Controller = (*Astraea)(nil)
	_ cc.Inspector  = (*Astraea)(nil)
)

// New builds Astraea with decider d (cfg: MSS and InitialCWnd).
func New(cfg cc.Config, d Decider) (*Astraea, error) {
	if d == nil {
		return nil, fmt.Errorf("astraea: nil decider")
	}
	if cfg.MSS <= 0 || cfg.InitialCWnd <= 0 {
		return nil, fmt.Errorf("astraea: mss %d and initial cwnd %d must be positive", cfg.MSS, cfg.InitialCWnd)
	}
	return &Astraea{mon: monitor.New(MonitorPeriod), dec: d, mss: cfg.MSS, cwnd: cfg.InitialCWnd * cfg.MSS, slow: true,
		minCWnd: minCWndSegs * cfg.MSS, maxCWnd: maxCWndSegs * cfg.MSS}, nil
}

// OnSend does nothing: the window moves on ACKs.
func (x *Astraea) OnSend(time.Duration, cc.SentInfo) {}

// OnAck grows the window in slow start (by the bytes acknowledged, RFC
// 5681 §3.1) until the first loss, halving it then, or until a period's
// RTT shows a queue; after that the window moves only by the agent's
// action, one step per closed monitor period.
func (x *Astraea) OnAck(now time.Duration, rs *cc.RateSample) {
	x.srtt = rs.SRTT
	if x.slow {
		if rs.LostBytes > 0 {
			x.slow = false
			x.cwnd = max(x.minCWnd, x.cwnd/2)
		} else {
			x.cwnd = min(x.maxCWnd, x.cwnd+rs.AckedBytes)
		}
	}
	if x.mon.OnAck(now, rs, x.cwnd) {
		x.step(now)
	}
}

func (x *Astraea) step(now time.Duration) {
	iv := x.mon.Last()
	r := x.feat.observe(iv, x.mss, x.last)
	if x.slow {
		if iv.MinRTT <= 0 || float64(iv.AvgRTT()) <= ssExitDelay*float64(iv.MinRTT) {
			return
		}
		x.slow = false
	}
	a := x.dec.Decide(now, iv, x.feat.state(), r)
	if !(a >= -1 && a <= 1) { // NaN included
		a = max(-1, min(1, a))
		if a != a {
			a = 0
		}
	}
	x.last = a
	x.steps++
	w := float64(x.cwnd)
	if a >= 0 {
		w += float64(a) * aiSegs * float64(x.mss)
	} else {
		w *= math.Exp2(mdExp * float64(a))
	}
	x.cwnd = int(max(float64(x.minCWnd), min(float64(x.maxCWnd), w)))
}

// OnRTO restarts from the minimum window, out of slow start.
func (x *Astraea) OnRTO(time.Duration) {
	x.slow = false
	x.cwnd = x.minCWnd
}

// CWnd is the window.
func (x *Astraea) CWnd() int { return x.cwnd }

// PacingRate is cwnd/srtt at Linux's ratios (0 before an RTT sample).
func (x *Astraea) PacingRate() float64 {
	if x.srtt <= 0 {
		return 0
	}
	g := pacingCA
	if x.slow {
		g = pacingSS
	}
	return g * float64(x.cwnd) / x.srtt.Seconds()
}

// Inspect reports action (the last a), agent_steps, slow_start and
// max_thr_mbps.
func (x *Astraea) Inspect() map[string]float64 {
	return map[string]float64{"action": float64(x.last), "agent_steps": float64(x.steps),
		"slow_start": cc.Flag(x.slow), "max_thr_mbps": x.feat.peak.Max() * 8 / 1e6}
}
