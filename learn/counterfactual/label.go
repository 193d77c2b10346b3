package counterfactual

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/leolab/leolab/cc/bbr"
	"github.com/leolab/leolab/learn"
)

// Options of a labelling.
type Options struct {
	// Every K: decisions are sampled every K-th ProbeBW cycle, UP at the
	// cycles 0, K, 2K… and DOWN at the cycles K/2, K/2+K… (the same cycle
	// when K = 1), so an UP and a DOWN label seldom fall on one row.
	Every int
	// Workers run replays in parallel (results merge in decision order).
	Workers int
	// Horizon bounds each replay past its decision (DefaultHorizon if 0).
	Horizon time.Duration
	// Replays K scores each gain as the mean reward of K replays whose
	// held gain is dithered by the offsets of Dither(K) (0 or 1: one
	// replay at the gain itself, the labels of before).
	Replays int
	// Noise also replays each decision's best gain at g·(1+NoiseStep)
	// with the same K offsets and records how far its mean reward moved
	// (Decision.Noise): the label's own resolution, to compare with the
	// margin between the best and second-best gain.
	Noise bool
	// Params are the reward's (learn.DefaultParams()).
	Params learn.Params
	// Progress, when set, is called after each run and replay with the
	// replays done and to do (from the workers, one call at a time).
	Progress func(done, total int)
}

// Bounds of the options.
const (
	MaxEvery   = 1000
	MaxWorkers = 256
	MaxReplays = 64
)

// DitherWidth is the half-width of the relative gain dither of Replays:
// the K replays of gain g hold g·(1+ε_k) with ε_k evenly spaced in
// (−DitherWidth, +DitherWidth). Why dither the gain: the simulator is
// deterministic, and a 0.1 % change of the pacing rate moves packets
// across the link's frame boundaries and changes a cycle's reward by as
// much as the gap between neighbouring gains (measured, learn label
// --noise); the alignment of a flow's packets to the frames is neither
// observed nor controlled by a sender, whose pacing rate is the gain
// times a bandwidth estimate that itself moves by more than 0.5 % from
// one round to the next. The mean over the dither is the reward a gain
// can expect over that alignment. 0.5 % keeps every dithered gain nearer
// its own gain than any other: the closest feasible gains are 0.96 and
// 0.98, 2.1 % apart (learn.Actions), and 0.98·1.005 < 0.99.
const DitherWidth = 0.005

// NoiseStep is the relative gain step of Options.Noise: 0.1 %, a fifth of
// DitherWidth, far below any gain spacing, so the reward's change is the
// label's deterministic sensitivity, not a different gain's effect.
const NoiseStep = 1e-3

// Dither returns the K relative offsets ε_k of Replays: ε_k =
// DitherWidth·(2(k+½)/K − 1), k = 0..K−1 (0 alone when K ≤ 1).
func Dither(k int) []float64 {
	if k <= 1 {
		return []float64{0}
	}
	out := make([]float64, k)
	for i := range out {
		out[i] = DitherWidth * (2*(float64(i)+0.5)/float64(k) - 1)
	}
	return out
}

// Validate names each bad option as its flag of leolab learn label.
func (o *Options) Validate() error {
	if o.Every < 1 || o.Every > MaxEvery {
		return fmt.Errorf("--every %d is out of range (allowed: 1..%d)", o.Every, MaxEvery)
	}
	if o.Workers < 1 || o.Workers > MaxWorkers {
		return fmt.Errorf("--workers %d is out of range (allowed: 1..%d)", o.Workers, MaxWorkers)
	}
	if o.Replays < 0 || o.Replays > MaxReplays {
		return fmt.Errorf("--replays %d is out of range (allowed: 1..%d)", o.Replays, MaxReplays)
	}
	if o.Horizon < 0 || o.Horizon > time.Minute {
		return fmt.Errorf("--horizon %v is out of range (allowed: 0 for %v, up to 1m)", o.Horizon, DefaultHorizon)
	}
	return nil
}

// Source is one run to label: its scenario and its rows' source.
type Source struct {
	Build SpecFunc
	Pool  learn.Source
}

// Decision is one sampled decision and every feasible gain's outcome.
type Decision struct {
	Entry Entry
	Phase learn.Phase
	// Row is the index, in its run's rows, of the interval the decision
	// labels: the last one that ended at or before the decision (the
	// state the controller knew).
	Row      int
	Outcomes []Outcome // Feasible(Phase), ascending
	Best     int       // index of the largest reward; ties go to the lower gain
	// Noise is |mean reward of the best gain at g·(1+NoiseStep) − its
	// mean reward| with Options.Noise (0 without).
	Noise float64
	// Surrogate is eq. 17's label for the row in the same phase, and
	// Mapped eq. 3's: what the label replaces.
	Surrogate, Mapped float64
}

// Labelled is one run's pool rows (learn.Pool order) with the sampled
// decisions written into them.
type Labelled struct {
	Rows      []learn.Row
	Decisions []Decision
	// Uninformative counts the decisions replayed but left out because
	// every gain measured the same reward (see apply).
	Uninformative int
}

// Label runs every source's base run, samples its decisions, replays each
// with every feasible gain and writes the measured argmax into the rows
// (LabelCounterfactual). Rows without a decision keep their surrogate
// labels. The result is in source order, identical for any Workers.
func Label(srcs []Source, opt Options) ([]Labelled, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if opt.Params == (learn.Params{}) {
		opt.Params = learn.DefaultParams()
	}
	horizon := opt.Horizon
	if horizon == 0 {
		horizon = DefaultHorizon
	}
	out := make([]Labelled, len(srcs))
	intervals := make([]time.Duration, len(srcs))
	var prog progress
	prog.fn = opt.Progress
	prog.total = len(srcs)
	err := parallel(len(srcs), opt.Workers, func(i int) error {
		b, err := Base(srcs[i].Build)
		if err != nil {
			return err
		}
		pool := &learn.Pool{Params: opt.Params}
		if len(b.Result.Flows) == 0 {
			return fmt.Errorf("counterfactual: %s: no flow in the result", srcs[i].Pool.Flow)
		}
		if err := pool.AddFlow(srcs[i].Pool, b.Result.Flows[0]); err != nil {
			return err
		}
		out[i].Rows = pool.Rows
		intervals[i] = b.Interval
		out[i].Decisions = sample(b, out[i].Rows, opt.Every, horizon)
		prog.add(0, 1)
		return nil
	})
	if err != nil {
		return nil, err
	}
	eps := Dither(opt.Replays)
	type job struct{ src, dec, gain, rep int }
	var jobs []job
	for i := range out {
		for d, dec := range out[i].Decisions {
			for g := range learn.Feasible(dec.Phase) {
				for k := range eps {
					jobs = append(jobs, job{i, d, g, k})
				}
			}
		}
	}
	// each replay's outcome, by decision, gain and offset; averaged after
	scored := make([][][]Outcome, len(out))
	for i := range out {
		scored[i] = make([][]Outcome, len(out[i].Decisions))
		for d, dec := range out[i].Decisions {
			scored[i][d] = make([]Outcome, len(dec.Outcomes)*len(eps))
		}
	}
	prog.add(len(jobs), 0)
	replay := func(src, d int, g, eps float64) (Outcome, error) {
		dec := &out[src].Decisions[d]
		w, err := Replay(srcs[src].Build, dec.Entry, g*(1+eps), horizon)
		if err != nil {
			return Outcome{}, fmt.Errorf("%s: %w", srcs[src].Pool.Flow, err)
		}
		o := Score(g*(1+eps), w, out[src].Rows[dec.Row].Refs, intervals[src], opt.Params)
		o.Gain = g
		return o, nil
	}
	err = parallel(len(jobs), opt.Workers, func(j int) error {
		jb := jobs[j]
		dec := &out[jb.src].Decisions[jb.dec]
		o, err := replay(jb.src, jb.dec, learn.Feasible(dec.Phase)[jb.gain], eps[jb.rep])
		if err != nil {
			return err
		}
		scored[jb.src][jb.dec][jb.gain*len(eps)+jb.rep] = o
		prog.add(0, 1)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range out {
		for d := range out[i].Decisions {
			dec := &out[i].Decisions[d]
			for g := range dec.Outcomes {
				dec.Outcomes[g] = Mean(scored[i][d][g*len(eps) : (g+1)*len(eps)])
			}
			dec.Best = best(dec.Outcomes)
		}
	}
	if opt.Noise {
		var njobs []job
		for i := range out {
			for d, dec := range out[i].Decisions {
				for k := range eps {
					njobs = append(njobs, job{i, d, dec.Best, k})
				}
			}
		}
		prog.add(len(njobs), 0)
		moved := make([]Outcome, len(njobs))
		err = parallel(len(njobs), opt.Workers, func(j int) error {
			jb := njobs[j]
			g := out[jb.src].Decisions[jb.dec].Outcomes[jb.gain].Gain
			o, err := replay(jb.src, jb.dec, g*(1+NoiseStep), eps[jb.rep])
			if err != nil {
				return err
			}
			moved[j] = o
			prog.add(0, 1)
			return nil
		})
		if err != nil {
			return nil, err
		}
		for j := 0; j < len(njobs); j += len(eps) {
			jb := njobs[j]
			dec := &out[jb.src].Decisions[jb.dec]
			dec.Noise = math.Abs(Mean(moved[j:j+len(eps)]).Reward - dec.Outcomes[dec.Best].Reward)
		}
	}
	for i := range out {
		kept := out[i].Decisions[:0]
		for _, d := range out[i].Decisions {
			if apply(&d, &out[i].Rows[d.Row], opt.Params) {
				kept = append(kept, d)
			} else {
				out[i].Uninformative++
			}
		}
		out[i].Decisions = kept
	}
	return out, nil
}

// sample picks the decisions of a base run (see Options.Every): cycle c
// is the c-th UP entry, its DOWN the first DOWN entry after it. A decision
// whose cycle does not end within the horizon, or that falls before the
// first interval's end, or on a row already taken, is left out.
func sample(b *BaseRun, rows []learn.Row, every int, horizon time.Duration) []Decision {
	var out []Decision
	taken := map[int]bool{}
	cycle, downDone := -1, true
	for k, e := range b.Entries {
		var ph learn.Phase
		switch {
		case e.Phase == bbr.GainUp:
			cycle++
			downDone = false
			if cycle%every != 0 {
				continue
			}
			ph = learn.Up
		case cycle >= 0 && !downDone:
			downDone = true
			if cycle%every != every/2 {
				continue
			}
			ph = learn.Down
		default:
			continue
		}
		if b.Window(k, horizon).Truncated {
			continue
		}
		row := -1
		for i, r := range rows {
			if r.T > e.At.T {
				break
			}
			row = i
		}
		if row < 0 || taken[row] {
			continue
		}
		taken[row] = true
		r := rows[row]
		sur, _ := r.Refs.Expert(ph, learn.DefaultParams())
		out = append(out, Decision{Entry: e, Phase: ph, Row: row, Outcomes: make([]Outcome, len(learn.Feasible(ph))),
			Surrogate: sur, Mapped: learn.Nearest(ph, learn.ContinuousGain(ph, r.Refs.BNorm))})
	}
	return out
}

// apply picks the decision's best gain and writes the label into its row:
// the phase BBR was in, the measured argmax and its reward, every gain's
// reward, and eq. 3's gain for that phase with its surrogate reward. A
// decision where every gain measured the same reward (the phase ended on
// its first ACK, before the gain paced anything) carries no label: apply
// leaves the row alone and reports false.
func apply(d *Decision, r *learn.Row, p learn.Params) bool {
	d.Best = best(d.Outcomes)
	rewards := make([]float64, len(d.Outcomes))
	same := true
	for i, o := range d.Outcomes {
		rewards[i] = o.Reward
		same = same && o.Reward == d.Outcomes[0].Reward
	}
	if same {
		return false
	}
	r.Phase = d.Phase
	r.Action, r.Reward = d.Outcomes[d.Best].Gain, d.Outcomes[d.Best].Reward
	r.Mapped = d.Mapped
	r.MappedReward = r.Refs.Reward(d.Mapped, p)
	r.LabelSource, r.GainRewards = learn.LabelCounterfactual, rewards
	return true
}

// best is the index of the largest reward; ties go to the lower gain.
func best(os []Outcome) int {
	b := 0
	for i, o := range os {
		if o.Reward > os[b].Reward {
			b = i
		}
	}
	return b
}

// Mean averages the replays of one gain: every measured quantity and the
// reward are means over the replays, Spread is the rewards' sample
// standard deviation (0 for one replay), Window is the first replay's.
func Mean(os []Outcome) Outcome {
	if len(os) == 1 {
		return os[0]
	}
	m := Outcome{Gain: os[0].Gain, Window: os[0].Window}
	n := float64(len(os))
	var qd float64
	for _, o := range os {
		m.Throughput += o.Throughput / n
		m.Retransmits += o.Retransmits / n
		qd += o.QueueDelay.Seconds() / n
		m.U += o.U / n
		m.Reward += o.Reward / n
	}
	m.QueueDelay = time.Duration(qd * float64(time.Second))
	var ss float64
	for _, o := range os {
		ss += (o.Reward - m.Reward) * (o.Reward - m.Reward)
	}
	m.Spread = math.Sqrt(ss / (n - 1))
	return m
}

// parallel runs f(0..n-1) on up to workers goroutines and returns the
// first error by index.
func parallel(n, workers int, f func(int) error) error {
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// progress serialises the Progress calls.
type progress struct {
	mu          sync.Mutex
	fn          func(done, total int)
	done, total int
}

func (p *progress) add(total, done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total += total
	p.done += done
	if p.fn != nil && done > 0 {
		p.fn(p.done, p.total)
	}
}
