package sage

import (
	"fmt"
	"sync"
	"time"

	"github.com/leolab/leolab/cc"
	_ "github.com/leolab/leolab/cc/all" // the pool's heuristics
	"github.com/leolab/leolab/cc/monitor"
	csage "github.com/leolab/leolab/cc/sage"
	"github.com/leolab/leolab/learn/rlenv"
	"github.com/leolab/leolab/result"
)

// StateDim is the policy's input size.
const StateDim = csage.Window * csage.NumFeatures

// Trajectory is one heuristic run as Sage learns from it: the state
// after each monitor period but the first (n·StateDim values), the
// action the heuristic took in it (the log2 ratio of its window at the
// period's close to that at the previous close, within [−2, 2]; n
// values), and for each t < n−1 the reward of the action (Sage's reward
// of the next period).
type Trajectory struct {
	CCA     string
	Episode rlenv.Episode
	S       []float32
	A, R    []float32
	flow    result.Flow // the run's flow 0
}

// Len is the number of periods.
func (t *Trajectory) Len() int { return len(t.S) / StateDim }

// State is the state after period i.
func (t *Trajectory) State(i int) []float32 { return t.S[i*StateDim : (i+1)*StateDim] }

// DefaultPool are the heuristic controllers whose runs make the pool:
// the ones of the paper's collective knowledge leolab has (the paper
// learns from Cubic, Vegas, BBR, Reno, Hybla and others) plus Copa.
var DefaultPool = []string{"cubic", "reno", "vegas", "bbr1", "bbr3", "hybla", "copa"}

// PoolDist is the distribution the pool's runs are drawn from: learn/
// rlenv's terrestrial one (10–100 Mbit/s, 10–100 ms, ½–4 BDP, random
// loss up to 0.1 % in a quarter) without competitors, since the pool's
// reward is Sage's single-flow one.
func PoolDist() rlenv.Dist {
	d := rlenv.DefaultDist()
	d.Competitors, d.CompetitorCCA = 0, ""
	return d
}

// recorder wraps a heuristic controller, cutting its ACKs into Sage's
// monitor periods and recording its trajectory.
type recorder struct {
	cc.Controller
	mon      *monitor.Monitor
	feat     csage.Features
	capacity float64
	prevW    float64 // the window at the previous period's close
	last     float64 // the action in the previous period
	tr       *Trajectory
}

func (r *recorder) Unwrap() cc.Controller { return r.Controller }

// window is the heuristic's effective window: its cwnd, or for a paced
// controller the smaller of cwnd and pacing rate·srtt (a rate-based
// controller's cwnd is only a cap).
func window(c cc.Controller, srtt time.Duration) float64 {
	w := float64(c.CWnd())
	if p := c.PacingRate(); p > 0 && srtt > 0 {
		w = min(w, p*srtt.Seconds())
	}
	return w
}

func (r *recorder) OnAck(now time.Duration, rs *cc.RateSample) {
	r.Controller.OnAck(now, rs)
	w := window(r.Controller, rs.SRTT)
	if !r.mon.OnAck(now, rs, int(w)) {
		return
	}
	// The heuristic reacts to a period's ACKs within it, Sage at its end:
	// the heuristic's action in state s_t is the change of its window
	// over period t, and the state shows the window it started the
	// period with (as Sage's does), not the one it ended with.
	iv := *r.mon.Last()
	if r.prevW == 0 {
		r.prevW = w
		return
	}
	a := csage.Ratio(w, r.prevW)
	if r.tr.Len() > 0 {
		r.tr.R = append(r.tr.R, float32(csage.Reward(&iv, r.capacity)))
	}
	iv.CWnd = int(r.prevW)
	r.feat.Observe(&iv, r.last)
	r.tr.S = append(r.tr.S, r.feat.State()...)
	r.tr.A = append(r.tr.A, float32(a))
	r.last, r.prevW = a, w
}

type nopPolicy struct{}

func (nopPolicy) Act([]float32) float32 { return 0 }

// Collect runs each controller of ccas on episodes first..first+n−1 of
// seed from dist (controller k on episodes k·n+first+i, so that each
// sees its own links) on at most workers goroutines, and returns the
// trajectories in (controller, episode) order. The result does not
// depend on workers.
func Collect(dist rlenv.Dist, ccas []string, seed uint64, first, n, workers int) ([]Trajectory, error) {
	if err := dist.Validate(); err != nil {
		return nil, err
	}
	for _, name := range ccas {
		if _, ok := cc.Lookup(name); !ok {
			return nil, fmt.Errorf("sage: pool controller %q is not registered (allowed: %v)", name, cc.Names())
		}
	}
	out := make([]Trajectory, len(ccas)*n)
	errs := make([]error, len(out))
	sem := make(chan struct{}, max(1, workers))
	var wg sync.WaitGroup
	for k, name := range ccas {
		for i := range n {
			j := k*n + i
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				out[j], errs[j] = run(dist, name, seed, k*n+first+i, func(cfg cc.Config) (cc.Controller, error) { return cc.New(name, cfg) })
			}()
		}
	}
	wg.Wait()
	for j, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("sage: pool run %d (%s): %w", j, ccas[j/n], err)
		}
	}
	return out, nil
}

// run runs episode i of seed with flow 0 the controller newCC builds,
// registered as name, and records its trajectory.
func run(dist rlenv.Dist, name string, seed uint64, i int, newCC func(cc.Config) (cc.Controller, error)) (Trajectory, error) {
	ep := dist.Draw(seed, i)
	tr := &Trajectory{CCA: name, Episode: ep}
	periods := int(ep.Duration/csage.MonitorPeriod) + 1
	tr.S = make([]float32, 0, periods*StateDim)
	task := rlenv.Task{Name: name, StateDim: StateDim, New: func(cfg cc.Config, _ rlenv.Decider) (cc.Controller, error) {
		c, err := newCC(cfg)
		if err != nil {
			return nil, err
		}
		return &recorder{Controller: c, mon: monitor.New(csage.MonitorPeriod), capacity: ep.RateMbps * 1e6 / 8, tr: tr}, nil
	}}
	res, err := (rlenv.Collector{Dist: dist, Task: task}).Run(seed, i, nopPolicy{})
	if err != nil {
		return Trajectory{}, err
	}
	tr.flow = res.Agent
	return *tr, nil
}
