package td3

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/leolab/leolab/learn/actor"
)

// Config holds TD3's hyper-parameters. Defaults (DefaultConfig) name
// their source; where the authors' Orca value does not fit a training
// run of minutes on two cores, the value used and the authors' are both
// given.
type Config struct {
	Hidden      []int   // hidden widths of actor and critics
	Gamma       float64 // discount
	Tau         float64 // target soft-update rate
	LRActor     float64
	LRCritic    float64
	Batch       int
	PolicyDelay int     // critic updates per actor and target update
	TargetNoise float64 // target-policy smoothing noise σ̃
	NoiseClip   float64 // its clip c
}

// DefaultConfig is Orca's TD3 as trained here.
func DefaultConfig() Config {
	return Config{
		// Soheil-ab/Orca params.json: h1_shape = h2_shape = 256; 64 here
		// (16× fewer multiply-adds per update) to train in minutes.
		Hidden: []int{64, 64},
		// params.json gamma 0.995 (a 200-period, 4 s horizon at 20 ms);
		// 0.98 here (50 periods, 1 s, still ≥ 10 RTTs of the training
		// links), which the critic learns in the updates a short run has.
		Gamma: 0.98,
		// params.json tau 0.001; TD3's 0.005 here (Fujimoto et al. 2018,
		// Table 3), for the same reason.
		Tau:      0.005,
		LRActor:  1e-4, // params.json lr_a
		LRCritic: 1e-3, // params.json lr_c
		// params.json batch_size 512; 128 here.
		Batch:       128,
		PolicyDelay: 5, // params.json update_delay
		// TD3's target smoothing σ̃ = 0.2 clipped at 0.5 (Fujimoto et
		// al. 2018 §5.3; Orca's CDQ: true uses TD3's targets).
		TargetNoise: 0.2,
		NoiseClip:   0.5,
	}
}

// Validate checks c.
func (c Config) Validate() error {
	if len(c.Hidden) == 0 || c.Batch <= 0 || c.PolicyDelay <= 0 {
		return fmt.Errorf("td3: hidden %v, batch %d, policy delay %d: want hidden layers and positive batch and delay", c.Hidden, c.Batch, c.PolicyDelay)
	}
	for _, h := range c.Hidden {
		if h <= 0 || h > 4096 {
			return fmt.Errorf("td3: hidden width %d: want 1..4096", h)
		}
	}
	if !(c.Gamma >= 0 && c.Gamma < 1) || !(c.Tau > 0 && c.Tau <= 1) || !(c.LRActor > 0) || !(c.LRCritic > 0) ||
		!(c.TargetNoise >= 0) || !(c.NoiseClip >= 0) {
		return fmt.Errorf("td3: gamma %v tau %v lr %v/%v noise %v clip %v out of range", c.Gamma, c.Tau, c.LRActor, c.LRCritic, c.TargetNoise, c.NoiseClip)
	}
	return nil
}

// Agent is a TD3 learner for a one-dimensional action in [−1, 1].
type Agent struct {
	cfg                    Config
	dim                    int
	actor, actorT          *MLP
	q1, q2, q1T, q2T       *MLP
	rng                    *rand.Rand
	updates                int
	batch                  []*Sample
	xs, xsa, xs2a, y, dy   []float64
	tA, tAT, tQ1, tQ2, tQT tape
	tQT2                   tape
	// last losses, for logs
	CriticLoss, ActorQ float64
}

// New makes an agent for states of dim values, its weights drawn from
// seed.
func New(dim int, cfg Config, seed uint64) (*Agent, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if dim <= 0 {
		return nil, fmt.Errorf("td3: state size %d", dim)
	}
	r := rand.New(rand.NewPCG(seed, 0x7d3))
	aSizes := append(append([]int{dim}, cfg.Hidden...), 1)
	qSizes := append(append([]int{dim + 1}, cfg.Hidden...), 1)
	a := &Agent{cfg: cfg, dim: dim, rng: r}
	a.actor = newMLP(aSizes, true, 3e-3, r)
	a.q1 = newMLP(qSizes, false, 3e-3, r)
	a.q2 = newMLP(qSizes, false, 3e-3, r)
	a.actorT, a.q1T, a.q2T = a.actor.clone(), a.q1.clone(), a.q2.clone()
	b := cfg.Batch
	a.batch = make([]*Sample, b)
	a.xs, a.xsa, a.xs2a = make([]float64, b*dim), make([]float64, b*(dim+1)), make([]float64, b*(dim+1))
	a.y, a.dy = make([]float64, b), make([]float64, b)
	return a, nil
}

// Updates is the number of critic updates so far.
func (a *Agent) Updates() int { return a.updates }

// Update takes one TD3 step on a batch drawn from rb: both critics
// towards r + γ·min(Q1′, Q2′)(s′, clip(π′(s′) + clip(ε, ±c), ±1)), and
// every PolicyDelay steps the actor up ∇ₐQ1 and the targets towards the
// networks (Fujimoto et al. 2018, Algorithm 1).
func (a *Agent) Update(rb *Replay) {
	if rb.Len() == 0 {
		return
	}
	cfg, d, n := a.cfg, a.dim, a.cfg.Batch
	rb.sample(a.rng, a.batch)
	// target actions on s′, smoothed
	for i, s := range a.batch {
		for j, v := range s.S2 {
			a.xs[i*d+j] = float64(v)
		}
	}
	at := a.actorT.forward(a.xs, n, &a.tAT)
	for i, s := range a.batch {
		e := math.Max(-cfg.NoiseClip, math.Min(cfg.NoiseClip, cfg.TargetNoise*a.rng.NormFloat64()))
		row := a.xs2a[i*(d+1) : (i+1)*(d+1)]
		for j, v := range s.S2 {
			row[j] = float64(v)
		}
		row[d] = math.Max(-1, math.Min(1, at[i]+e))
	}
	q1t := a.q1T.forward(a.xs2a, n, &a.tQT)
	q2t := a.q2T.forward(a.xs2a, n, &a.tQT2)
	for i, s := range a.batch {
		a.y[i] = float64(s.R) + cfg.Gamma*math.Min(q1t[i], q2t[i])
		row := a.xsa[i*(d+1) : (i+1)*(d+1)]
		for j, v := range s.S {
			row[j] = float64(v)
		}
		row[d] = float64(s.A)
	}
	// critics: MSE to y
	a.CriticLoss = 0
	for _, q := range []struct {
		m *MLP
		t *tape
	}{{a.q1, &a.tQ1}, {a.q2, &a.tQ2}} {
		out := q.m.forward(a.xsa, n, q.t)
		for i := range n {
			diff := out[i] - a.y[i]
			a.CriticLoss += diff * diff / float64(2*n)
			a.dy[i] = 2 * diff / float64(n)
		}
		q.m.zeroGrad()
		q.m.backward(a.dy, n, q.t)
		q.m.adam(cfg.LRCritic)
	}
	a.updates++
	if a.updates%cfg.PolicyDelay != 0 {
		return
	}
	// actor: maximise Q1(s, π(s))
	for i, s := range a.batch {
		for j, v := range s.S {
			a.xs[i*d+j] = float64(v)
		}
	}
	pa := a.actor.forward(a.xs, n, &a.tA)
	for i := range n {
		a.xsa[i*(d+1)+d] = pa[i]
	}
	qs := a.q1.forward(a.xsa, n, &a.tQ1)
	a.ActorQ = 0
	for i := range n {
		a.ActorQ += qs[i] / float64(n)
		a.dy[i] = -1 / float64(n)
	}
	dx := a.q1.backward(a.dy, n, &a.tQ1) // q1's gradients are discarded
	for i := range n {
		a.y[i] = dx[i*(d+1)+d]
	}
	a.actor.zeroGrad()
	a.actor.backward(a.y, n, &a.tA)
	a.actor.adam(cfg.LRActor)
	a.q1.zeroGrad()
	a.actorT.softUpdate(a.actor, cfg.Tau)
	a.q1T.softUpdate(a.q1, cfg.Tau)
	a.q2T.softUpdate(a.q2, cfg.Tau)
}

// ActorLayers exports the actor's weights in learn/actor's layout (float32).
func (a *Agent) ActorLayers() []actor.Layer {
	var ls []actor.Layer
	for _, d := range a.actor.layers {
		l := actor.Layer{In: d.in, Out: d.out, W: make([]float32, len(d.w)), B: make([]float32, len(d.b))}
		for i, v := range d.w {
			l.W[i] = float32(v)
		}
		for i, v := range d.b {
			l.B[i] = float32(v)
		}
		ls = append(ls, l)
	}
	return ls
}
