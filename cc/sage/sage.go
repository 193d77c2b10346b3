package sage

import (
	_ "embed"
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/monitor"
)

// Control constants.
const (
	// MonitorPeriod is the policy's period: 20 ms, the monitor period of
	// leolab's learned controllers (ours; sage.cc reports every 10 ms).
	MonitorPeriod = 20 * time.Millisecond
	// minCWndSegs and maxCWndSegs bound the window (sage.cc MIN_CWND 4,
	// MAX_CWND 20000).
	minCWndSegs = 4
	maxCWndSegs = 20000
	// ssExitDelay ends the initial slow start once a period's mean RTT
	// exceeds 1.25·min_rtt (cc/astraea's rule, ours).
	ssExitDelay = 1.25
	// ParamModel names a policy file (cc.Config.Files) replacing the
	// embedded one.
	ParamModel = "model"
)

//go:embed policy.json
var defaultPolicyJSON []byte

// DefaultPolicy is the embedded trained policy (a fresh copy each call).
func DefaultPolicy() *Policy {
	p, _ := configPolicy(cc.Config{})
	return p
}

// DefaultPolicyFile is the embedded policy file's contents.
func DefaultPolicyFile() []byte { return defaultPolicyJSON }

func init() {
	cc.Register(cc.Info{
		Name:        "sage",
		Description: "Sage: a GRU policy learned offline (CRR) from heuristic controllers' runs multiplies cwnd by 2^a, |a| ≤ 2, every 20 ms; retrained here; the authors' weights are not used",
		Source:      "Yen, Abbasloo, Chao et al., SIGCOMM 2023 (Computers Can Learn from the Heuristic Designs and Master Internet Congestion Control); Soheil-ab/sage; weights: leolab learn train-cca sage",
		Params:      map[string]float64{},
		Files:       map[string]string{ParamModel: "Sage policy weights (leolab-sage-policy JSON, leolab learn train-cca sage --out)"},
		New: func(cfg cc.Config) (cc.Controller, error) {
			p, err := configPolicy(cfg)
			if err != nil {
				return nil, err
			}
			return New(cfg, p)
		},
	})
}

// Sage is one flow's controller.
type Sage struct {
	mon      *monitor.Monitor
	feat     Features
	pol      *Policy
	mss      int
	cwnd     float64 // the precise window (sage.cc ACCUMULATE_CWND)
	prevCWnd float64 // at the previous period's end
	slow     bool
	last     float64 // log2 of the last period's window ratio
	steps    int
	lo, hi   float64
}

var (
	_ cc.Controller = (*Sage)(nil)
	_ cc.Inspector  = (*Sage)(nil)
)

// New builds Sage acting with policy p (cfg: MSS and InitialCWnd).
func New(cfg cc.Config, p *Policy) (*Sage, error) {
	if p == nil {
		return nil, fmt.Errorf("sage: nil policy")
	}
	if cfg.MSS <= 0 || cfg.InitialCWnd <= 0 {
		return nil, fmt.Errorf("sage: mss %d and initial cwnd %d must be positive", cfg.MSS, cfg.InitialCWnd)
	}
	w := float64(cfg.InitialCWnd * cfg.MSS)
	return &Sage{mon: monitor.New(MonitorPeriod), pol: p, mss: cfg.MSS, cwnd: w, prevCWnd: w, slow: true,
		lo: minCWndSegs * float64(cfg.MSS), hi: maxCWndSegs * float64(cfg.MSS)}, nil
}

// OnSend does nothing: the window moves on ACKs.
func (s *Sage) OnSend(time.Duration, cc.SentInfo) {}

// OnAck grows the window in the initial slow start (RFC 5681 §3.1) until
// the first loss, halving it then, or a period's RTT shows a queue; after
// that the window moves only by the policy, once per closed period.
func (s *Sage) OnAck(now time.Duration, rs *cc.RateSample) {
	if s.slow {
		if rs.LostBytes > 0 {
			s.slow = false
			s.cwnd = max(s.lo, s.cwnd/2)
		} else {
			s.cwnd = min(s.hi, s.cwnd+float64(rs.AckedBytes))
		}
	}
	if s.mon.OnAck(now, rs, int(s.cwnd)) {
		s.step()
	}
}

func (s *Sage) step() {
	iv := s.mon.Last()
	s.feat.Observe(iv, s.last)
	if s.slow && iv.MinRTT > 0 && float64(iv.AvgRTT()) > ssExitDelay*float64(iv.MinRTT) {
		s.slow = false
	}
	if !s.slow {
		a := float64(s.pol.Act(s.feat.State()))
		if !(a >= -ActionMax && a <= ActionMax) {
			a = 0 // NaN: hold
		}
		s.steps++
		s.cwnd = max(s.lo, min(s.hi, s.cwnd*math.Exp2(a)))
	}
	s.last = Ratio(s.cwnd, s.prevCWnd)
	s.prevCWnd = s.cwnd
}

// Ratio is log2(w/prev) within [−2, 2]: the action that moves prev to w.
func Ratio(w, prev float64) float64 {
	if w <= 0 || prev <= 0 {
		return 0
	}
	return max(-ActionMax, min(ActionMax, math.Log2(w/prev)))
}

// OnRTO restarts from the minimum window, out of slow start.
func (s *Sage) OnRTO(time.Duration) {
	s.slow = false
	s.cwnd = s.lo
}

// CWnd is the window.
func (s *Sage) CWnd() int { return int(s.cwnd) }

// PacingRate is 0: Sage sets the window of an unpaced TCP (sage.cc runs
// over the kernel's TCP without fq pacing).
func (s *Sage) PacingRate() float64 { return 0 }

// Inspect reports action (the last log2 window ratio), agent_steps,
// slow_start and max_thr_mbps.
func (s *Sage) Inspect() map[string]float64 {
	return map[string]float64{"action": s.last, "agent_steps": float64(s.steps),
		"slow_start": cc.Flag(s.slow), "max_thr_mbps": s.feat.MaxThr() * 8 / 1e6}
}
