package rlenv

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/monitor"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
	"github.com/leolab/leolab/sim"
)

// Decider is the agent's side of a learned controller: called once per
// monitor period with the period's measurements, the controller's state
// vector (valid during the call only) and the reward of the period; it
// returns the action in [−1, 1]. cc/orca's Decider has the same method.
type Decider interface {
	Decide(now time.Duration, iv *monitor.Interval, state []float32, reward float32) float32
}

// Task is a learned controller as the environment trains it.
type Task struct {
	Name     string // the controller's registry name (the result's cca)
	StateDim int
	// New builds the agent flow's controller, acting through d.
	New func(cfg cc.Config, d Decider) (cc.Controller, error)
	// Reward, when set, replaces the controller's reward of a period of
	// agent flow `flow` (local) by one computed over all agent flows of
	// the episode (b holds every agent flow's latest period, this one's
	// included): Astraea's fairness-aware reward. Nil: the controller's.
	Reward func(flow int, iv *monitor.Interval, local float32, b *Board) float32
}

// Board is what the agent flows of one training episode share: each
// flow's latest closed monitor period. An episode's flows run in one
// simulator goroutine, so the board needs no lock.
type Board struct {
	// Thr is each flow's throughput (bytes/s) smoothed over its periods
	// (an EWMA of gain BoardGain), End its latest period's end (0
	// before the first).
	Thr []float64
	End []time.Duration
	// MaxSum is the largest sum of Thr seen in the episode.
	MaxSum float64
	// Capacity is the bottleneck's rate in bytes/s on a fixed link (the
	// simulator knows it; only training rewards read it), 0 on the
	// Starlink path.
	Capacity float64
}

// BoardGain is the weight of a new period in a flow's smoothed
// throughput: ¼, about four 20 ms periods, so that the fairness of
// flows whose periods hold a dozen packets is not judged on one.
const BoardGain = 0.25

// Active is the throughputs of the flows whose latest period ended within
// window before now, appended to dst.
func (b *Board) Active(dst []float64, now, window time.Duration) []float64 {
	for i, e := range b.End {
		if e > 0 && now-e <= window {
			dst = append(dst, b.Thr[i])
		}
	}
	return dst
}

// Policy maps a state to an action in [−1, 1]. A Policy serves one
// episode at a time (it may keep scratch).
type Policy interface {
	Act(state []float32) float32
}

// Obs is what the environment saw of one monitor period, kept with its
// transition for checks and logs.
type Obs struct {
	End            time.Duration
	ThroughputBps  float64 // acknowledged bits per second
	LossBps        float64 // bits marked lost per second
	AvgRTT, MinRTT time.Duration
	CWnd           int
}

// Transition is one monitor period of experience: in state S the agent
// took action A; the next period's reward was R and its state S2.
type Transition struct {
	S     []float32
	A     float32
	R     float32
	S2    []float32
	Obs   Obs // the period that produced R and S2
	Index int // the period's index in its flow's episode
	Flow  int // the agent flow (0 unless the distribution self-plays)
}

// recorder is the Decider of a training episode: it explores around the
// policy with Gaussian noise (clipped to [−1, 1]) and records a
// transition per period after the first.
type recorder struct {
	pol   Policy
	task  *Task
	board *Board
	flow  int
	noise float64
	rng   *rand.Rand
	out   []Transition
	prevS []float32
	prevA float32
	have  bool
	n     int
}

func (r *recorder) Decide(now time.Duration, iv *monitor.Interval, s []float32, reward float32) float32 {
	cur := append([]float32(nil), s...)
	if b := r.board; b != nil {
		if b.End[r.flow] == 0 {
			b.Thr[r.flow] = iv.Throughput()
		} else {
			b.Thr[r.flow] += BoardGain * (iv.Throughput() - b.Thr[r.flow])
		}
		b.End[r.flow] = iv.End
		sum := 0.0
		for _, v := range b.Thr {
			sum += v
		}
		b.MaxSum = max(b.MaxSum, sum)
		if r.task.Reward != nil {
			reward = r.task.Reward(r.flow, iv, reward, b)
		}
	}
	if r.have {
		r.out = append(r.out, Transition{S: r.prevS, A: r.prevA, R: reward, S2: cur, Index: r.n, Flow: r.flow, Obs: Obs{
			End: iv.End, ThroughputBps: 8 * iv.Throughput(), LossBps: 8 * iv.LossRate(),
			AvgRTT: iv.AvgRTT(), MinRTT: iv.MinRTT, CWnd: iv.CWnd,
		}})
	}
	r.n++
	a := float64(r.pol.Act(cur))
	if r.noise > 0 {
		a += r.noise * r.rng.NormFloat64()
	}
	if a != a {
		a = 0
	}
	a = math.Max(-1, math.Min(1, a))
	r.prevS, r.prevA, r.have = cur, float32(a), true
	return float32(a)
}

// EpisodeResult is one collected episode.
type EpisodeResult struct {
	Episode     Episode
	Transitions []Transition
	// Agent is the agent flow's result; Result the whole run's.
	Agent  result.Flow
	Result *result.Result
}

// Collector runs episodes of a task.
type Collector struct {
	Dist Dist
	Task Task
	// Workers bounds the simulations running at once (≥ 1).
	Workers int
	// Noise is the exploration's standard deviation (0: act greedily).
	Noise float64
}

// Collect runs episodes first..first+n−1 of seed, each with its own
// policy from newPolicy (called in index order before any runs), and
// returns them in index order. The same arguments give the same
// transitions whatever Workers is.
func (c Collector) Collect(seed uint64, first, n int, newPolicy func() Policy) ([]EpisodeResult, error) {
	if err := c.Dist.Validate(); err != nil {
		return nil, err
	}
	if c.Task.New == nil || c.Task.StateDim <= 0 {
		return nil, fmt.Errorf("rlenv: task %q without a constructor or state size", c.Task.Name)
	}
	out := make([]EpisodeResult, n)
	errs := make([]error, n)
	pols := make([]Policy, n)
	for i := range pols {
		pols[i] = newPolicy()
	}
	sem := make(chan struct{}, max(1, c.Workers))
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i], errs[i] = c.run(seed, first+i, pols[i])
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("rlenv: episode %d: %w", first+i, err)
		}
	}
	return out, nil
}

// Run runs episode i of seed with policy pol and no exploration noise
// (evaluation).
func (c Collector) Run(seed uint64, i int, pol Policy) (EpisodeResult, error) {
	c.Noise = 0
	return c.run(seed, i, pol)
}

func (c Collector) run(seed uint64, i int, pol Policy) (EpisodeResult, error) {
	ep := c.Dist.Draw(seed, i)
	sc, err := scenario.Parse(fmt.Sprintf("rlenv-%d.yaml", i), []byte(ep.YAML(c.Task.Name)))
	if err != nil {
		return EpisodeResult{}, err
	}
	spec, err := sc.Spec()
	if err != nil {
		return EpisodeResult{}, err
	}
	agents := 1
	if c.Dist.SelfPlay {
		agents = len(spec.Flows)
	}
	board := &Board{Thr: make([]float64, agents), End: make([]time.Duration, agents), Capacity: ep.RateMbps * 1e6 / 8}
	recs := make([]*recorder, agents)
	for f := range recs {
		name := fmt.Sprintf("rlenv/noise/%d", i)
		if f > 0 {
			name = fmt.Sprintf("rlenv/noise/%d/flow/%d", i, f)
		}
		rec := &recorder{pol: pol, task: &c.Task, board: board, flow: f, noise: c.Noise, rng: sim.Stream(seed, name),
			out: make([]Transition, 0, int(ep.Duration/(20*time.Millisecond)))}
		recs[f] = rec
		spec.Flows[f].Controller = func(cfg cc.Config) (cc.Controller, error) { return c.Task.New(cfg, rec) }
	}
	res, err := netsim.Run(spec)
	if err != nil {
		return EpisodeResult{}, err
	}
	trs := recs[0].out
	for _, r := range recs[1:] {
		trs = append(trs, r.out...)
	}
	return EpisodeResult{Episode: ep, Transitions: trs, Agent: res.Flows[0], Result: res}, nil
}
