package sage

import (
	"fmt"
	"math"
	"sync"

	"github.com/leolab/leolab/cc"

	csage "github.com/leolab/leolab/cc/sage"
	"github.com/leolab/leolab/learn/rlenv"
)

// TrainConfig is a whole training: the pool's collection and CRR.
type TrainConfig struct {
	CRR      Config
	Dist     rlenv.Dist
	CCAs     []string
	Episodes int // runs of each pool controller
	Workers  int
	// ValEpisodes held-out runs (seed ValidationSeed) score the policy
	// every ValEvery steps and at the end, by Sage's mean reward per
	// period; the best is kept (0: keep the last).
	ValEpisodes, ValEvery int
	// Progress, when set, is told of the pool's collection.
	Progress func(string)
}

// DefaultTrainConfig rebuilds the embedded weights.
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{CRR: DefaultConfig(), Dist: PoolDist(), CCAs: DefaultPool, Episodes: 8, Workers: 2, ValEpisodes: 6, ValEvery: 500}
}

// Train collects the pool and runs CRR over it offline (no interaction
// with the simulator while learning). The same configuration gives the
// same weights whatever Workers is.
func Train(tc TrainConfig) (*csage.PolicyFile, []Trajectory, error) {
	if tc.Episodes < 1 || tc.Episodes > 10_000 || len(tc.CCAs) == 0 {
		return nil, nil, fmt.Errorf("sage: %d episodes of %d controllers: want 1..10000 episodes of at least one", tc.Episodes, len(tc.CCAs))
	}
	pool, err := Collect(tc.Dist, tc.CCAs, tc.CRR.Seed, 0, tc.Episodes, tc.Workers)
	if err != nil {
		return nil, nil, err
	}
	if tc.Progress != nil {
		n := 0
		for i := range pool {
			n += len(pool[i].A)
		}
		tc.Progress(fmt.Sprintf("pool: %d runs of %v, %d transitions", len(pool), tc.CCAs, n))
	}
	l, err := NewLearner(tc.CRR, pool)
	if err != nil {
		return nil, nil, err
	}
	best, bestScore := l.Policy(nil), math.Inf(-1)
	for step := 1; step <= tc.CRR.Steps; step++ {
		l.Step()
		if tc.ValEpisodes == 0 || (step%max(tc.ValEvery, 1) != 0 && step != tc.CRR.Steps) {
			continue
		}
		pf := l.Policy(nil)
		sc, err := Score(tc.Dist, pf, ValidationSeed(tc.CRR.Seed), tc.ValEpisodes, tc.Workers)
		if err != nil {
			return nil, nil, err
		}
		if sc.Reward > bestScore {
			best, bestScore = pf, sc.Reward
		}
		if tc.Progress != nil {
			tc.Progress(fmt.Sprintf("step %d: validation %v (best %.3f)", step, sc, bestScore))
		}
	}
	return best, pool, nil
}

// ValidationSeed is the seed of the validation runs: not the pool's.
func ValidationSeed(seed uint64) uint64 { return seed + 1<<32 }

// PolicyScore is a policy's mean over runs.
type PolicyScore struct {
	Reward      float64 // Sage's reward per period
	Utilisation float64 // throughput over the link's rate
	QueueMs     float64 // mean − min RTT
}

func (s PolicyScore) String() string {
	return fmt.Sprintf("reward %.3f, utilisation %.3f, queueing %.1f ms", s.Reward, s.Utilisation, s.QueueMs)
}

// Score runs sage with policy pf greedily on episodes 0..n−1 of seed.
func Score(dist rlenv.Dist, pf *csage.PolicyFile, seed uint64, n, workers int) (PolicyScore, error) {
	if _, err := csage.NewPolicy("policy", pf); err != nil {
		return PolicyScore{}, err
	}
	trs := make([]Trajectory, n)
	errs := make([]error, n)
	sem := make(chan struct{}, max(1, workers))
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			trs[i], errs[i] = run(dist, "sage", seed, i, func(cfg cc.Config) (cc.Controller, error) {
				p, _ := csage.NewPolicy("policy", pf)
				return csage.New(cfg, p)
			})
		}()
	}
	wg.Wait()
	var sc PolicyScore
	for i := range trs {
		if errs[i] != nil {
			return PolicyScore{}, errs[i]
		}
		r := 0.0
		for _, v := range trs[i].R {
			r += float64(v)
		}
		sc.Reward += r / float64(max(len(trs[i].R), 1)) / float64(n)
		f := trs[i].flow
		sc.Utilisation += f.ThroughputMbps / trs[i].Episode.RateMbps / float64(n)
		sc.QueueMs += (f.MeanRTTMs - f.MinRTTMs) / float64(n)
	}
	return sc, nil
}
