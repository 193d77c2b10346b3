package sage

import (
	"fmt"
	"math"
	"math/rand/v2"

	csage "github.com/leolab/leolab/cc/sage"
	"github.com/leolab/leolab/sim"
)

// Config is CRR's training configuration.
type Config struct {
	Seed   uint64
	Hidden int // GRU units (ours: 32; the authors' LSTM has 1024)
	// CriticHidden is the critic MLP's hidden width (two layers,
	// config-rl-offline.yaml c_mlp_depth 2; width ours: 64).
	CriticHidden int
	Steps        int // gradient steps
	Batch        int
	// Discount is γ (config-rl-offline.yaml discount 0.95).
	Discount float64
	// Beta is the exponential advantage filter's temperature and
	// MaxWeight its cap: weight = min(exp(A/β), 20) (crr2.py beta 1.0,
	// policy_improvement_modes exp; Acme CRR's upper bound 20).
	Beta, MaxWeight float64
	// ActionSamples estimate V(s) as the mean of Q over actions drawn
	// from the policy (crr2.py num_action_samples_policy_weight 4).
	ActionSamples int
	// Sigma is the policy's fixed Gaussian spread around its mean (ours:
	// the authors' head is a learned distribution).
	Sigma float64
	// PolicyLR and CriticLR (ours; the authors' 5e-6 and 5e-5 are for
	// 10⁶–10⁷ steps, ours are a few thousand).
	PolicyLR, CriticLR float64
	// TargetPeriod: the target critic is copied every this many steps
	// (config-rl-offline.yaml target_update_period 100).
	TargetPeriod int
	// MaxGradNorm clips each network's gradient (max_grad_norm 40).
	MaxGradNorm float64
	// Log, when set, is called every LogEvery steps.
	Log      func(StepLog)
	LogEvery int
}

// DefaultConfig is the default weights' training.
func DefaultConfig() Config {
	return Config{Seed: 1, Hidden: 32, CriticHidden: 64, Steps: 2000, Batch: 64, Discount: 0.95, Beta: 1, MaxWeight: 20,
		ActionSamples: 4, Sigma: 0.25, PolicyLR: 1e-3, CriticLR: 1e-3, TargetPeriod: 100, MaxGradNorm: 40, LogEvery: 500}
}

// Validate checks the configuration.
func (c Config) Validate() error {
	switch {
	case c.Hidden < 1 || c.Hidden > 256 || c.CriticHidden < 1 || c.CriticHidden > 1024:
		return fmt.Errorf("sage: hidden %d, critic hidden %d: want 1..256 and 1..1024", c.Hidden, c.CriticHidden)
	case c.Steps < 0 || c.Steps > 10_000_000 || c.Batch < 1 || c.Batch > 65536:
		return fmt.Errorf("sage: steps %d, batch %d: want 0..10⁷ and 1..65536", c.Steps, c.Batch)
	case !(c.Discount >= 0 && c.Discount < 1):
		return fmt.Errorf("sage: discount %v: want [0, 1)", c.Discount)
	case !(c.Beta > 0 && c.MaxWeight >= 1 && c.Sigma > 0 && c.PolicyLR > 0 && c.CriticLR > 0 && c.MaxGradNorm > 0):
		return fmt.Errorf("sage: beta %v, max weight %v, sigma %v, learning rates %v %v, grad norm %v: want positive (max weight ≥ 1)",
			c.Beta, c.MaxWeight, c.Sigma, c.PolicyLR, c.CriticLR, c.MaxGradNorm)
	case c.ActionSamples < 1 || c.ActionSamples > 64 || c.TargetPeriod < 1:
		return fmt.Errorf("sage: action samples %d, target period %d: want 1..64 and ≥ 1", c.ActionSamples, c.TargetPeriod)
	}
	return nil
}

// rewardScale divides the paper's rewards (at most 25 a period) for the
// critic's regression; advantages are scaled back before the filter, so
// β = 1 applies to the paper's units.
const rewardScale = 25

// StepLog is one progress report.
type StepLog struct {
	Step                 int
	CriticLoss, MeanQ    float64
	MeanWeight, MeanAbsA float64 // the filter's mean weight, mean |μ|
}

func (l StepLog) String() string {
	return fmt.Sprintf("step %d: critic loss %.4f, mean Q %.3f, mean weight %.2f, mean |a| %.3f", l.Step, l.CriticLoss, l.MeanQ, l.MeanWeight, l.MeanAbsA)
}

// Learner is CRR's state: the policy, the critic and its target.
type Learner struct {
	cfg          Config
	pol          *gru
	q, qt        *mlp
	rng          *rand.Rand
	data         []Trajectory
	index        [][2]int // (trajectory, period) of every transition
	qin          []float64
	steps        int
	sumLoss      float64
	sumQ, sumW   float64
	sumA, nStats float64
}

// NewLearner is a learner over trajectories data (kept, not copied).
func NewLearner(cfg Config, data []Trajectory) (*Learner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	l := &Learner{cfg: cfg, rng: sim.Stream(cfg.Seed, "learn/sage/crr"), data: data, qin: make([]float64, StateDim+1)}
	init := sim.Stream(cfg.Seed, "learn/sage/init")
	l.pol = newGRU(csage.NumFeatures, cfg.Hidden, csage.Window, init)
	l.q = newMLP([]int{StateDim + 1, cfg.CriticHidden, cfg.CriticHidden, 1}, init)
	l.qt = l.q.copyOf()
	for ti := range data {
		for i := range data[ti].R {
			l.index = append(l.index, [2]int{ti, i})
		}
	}
	if len(l.index) == 0 {
		return nil, fmt.Errorf("sage: no transitions to learn from")
	}
	return l, nil
}

// copyOf is a copy of m's parameters with fresh gradients and moments.
func (m *mlp) copyOf() *mlp {
	c := newMLP(m.sizes, rand.New(rand.NewPCG(0, 0)))
	copy(c.p, m.p)
	return c
}

// qval is critic m at state s and action a.
func (l *Learner) qval(m *mlp, s []float32, a float64) float64 {
	for i, v := range s {
		l.qin[i] = float64(v)
	}
	l.qin[StateDim] = a / csage.ActionMax
	return m.forward(l.qin)
}

// sample is an action of the policy at its mean mu.
func (l *Learner) sample(mu float64) float64 {
	return max(-csage.ActionMax, min(csage.ActionMax, mu+l.cfg.Sigma*l.rng.NormFloat64()))
}

// Step runs one gradient step of the critic and the policy on a batch.
func (l *Learner) Step() {
	c := l.cfg
	for range c.Batch {
		k := l.index[l.rng.IntN(len(l.index))]
		tr := &l.data[k[0]]
		s, s2 := tr.State(k[1]), tr.State(k[1]+1)
		a, r := float64(tr.A[k[1]]), float64(tr.R[k[1]])/rewardScale
		// critic: TD(0) towards r + γ·Q'(s', a'), a' ~ π(s') (crr2.py
		// with one action sample for TD learning)
		a2 := l.sample(l.pol.mu(s2))
		y := r + c.Discount*l.qval(l.qt, s2, a2)
		qa := l.qval(l.q, s, a)
		l.q.backward(qa - y) // ½(Q − y)²
		l.sumLoss += 0.5 * (qa - y) * (qa - y)
		l.sumQ += qa
		// policy: weight = min(exp(A/β), cap), A = Q(s,a) − mean_j Q(s, a_j)
		mu := l.pol.mu(s)
		v := 0.0
		for range c.ActionSamples {
			v += l.qval(l.q, s, l.sample(mu))
		}
		v /= float64(c.ActionSamples)
		adv := (qa - v) * rewardScale
		w := min(math.Exp(min(adv/c.Beta, 50)), c.MaxWeight)
		l.sumW += w
		l.sumA += math.Abs(mu)
		// −w·log N(a; μ, σ²) = w·(a − μ)²/(2σ²) + const
		l.pol.backward(-w * (a - mu) / (c.Sigma * c.Sigma))
	}
	inv := 1 / float64(c.Batch)
	adamStep(l.q.p, l.q.g, l.q.mo, l.q.ve, &l.q.t, c.CriticLR, inv, c.MaxGradNorm)
	adamStep(l.pol.p, l.pol.g, l.pol.mo, l.pol.ve, &l.pol.t, c.PolicyLR, inv, c.MaxGradNorm)
	l.steps++
	l.nStats += float64(c.Batch)
	if l.steps%c.TargetPeriod == 0 {
		copy(l.qt.p, l.q.p)
	}
	if c.Log != nil && c.LogEvery > 0 && l.steps%c.LogEvery == 0 {
		n := l.nStats
		c.Log(StepLog{Step: l.steps, CriticLoss: l.sumLoss / n, MeanQ: l.sumQ / n * rewardScale, MeanWeight: l.sumW / n, MeanAbsA: l.sumA / n})
		l.sumLoss, l.sumQ, l.sumW, l.sumA, l.nStats = 0, 0, 0, 0, 0
	}
}

// Policy is the current policy as cc/sage stores it.
func (l *Learner) Policy(meta map[string]string) *csage.PolicyFile { return l.pol.file(meta) }
