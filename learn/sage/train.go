package sage

import (
	"fmt"

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
	// Progress, when set, is told of the pool's collection.
	Progress func(string)
}

// DefaultTrainConfig rebuilds the embedded weights.
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{CRR: DefaultConfig(), Dist: PoolDist(), CCAs: DefaultPool, Episodes: 8, Workers: 2}
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
	for range tc.CRR.Steps {
		l.Step()
	}
	return l.Policy(nil), pool, nil
}
