package sage

import (
	"math/rand/v2"
	"testing"
	"time"
)

// banditPool is trajectories whose actions are +1 or −1 at random in
// random states, +1 paying 10 and −1 paying 0: plain behaviour cloning
// learns a mean action near 0, CRR's advantage filter one near +1.
func banditPool(n int) []Trajectory {
	rng := rand.New(rand.NewPCG(11, 12))
	tr := Trajectory{CCA: "bandit", S: make([]float32, (n+1)*StateDim), A: make([]float32, n+1), R: make([]float32, n)}
	for i := range tr.S {
		tr.S[i] = float32(rng.Float64())
	}
	for i := range n {
		if rng.IntN(2) == 0 {
			tr.A[i], tr.R[i] = 1, 10
		} else {
			tr.A[i] = -1
		}
	}
	return []Trajectory{tr}
}

// CRR prefers the better action: after 300 steps the policy's mean
// action over the pool's states is above +0.5 (exp(A/β) weighs +1 up to
// 20 times −1; cloning both equally would give ≈ 0).
func TestCRRPrefersBetterAction(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Hidden, cfg.CriticHidden, cfg.Steps, cfg.Discount = 8, 32, 300, 0
	data := banditPool(2000)
	l, err := NewLearner(cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	for range cfg.Steps {
		l.Step()
	}
	mean := 0.0
	for i := range 100 {
		mean += l.pol.mu(data[0].State(i)) / 100
	}
	if mean < 0.5 {
		t.Fatalf("mean action %.3f, want > 0.5 (toward the +1 that pays)", mean)
	}
}

// Same configuration → the same weights; another seed → others.
func TestTrainDeterministic(t *testing.T) {
	tc := DefaultTrainConfig()
	tc.CCAs, tc.Episodes, tc.Dist.Duration, tc.CRR.Steps, tc.ValEpisodes = []string{"cubic", "vegas"}, 1, 2*time.Second, 10, 1
	a, _, err := Train(tc)
	if err != nil {
		t.Fatal(err)
	}
	tc.Workers = 1
	b, _, err := Train(tc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Wz {
		if a.Wz[i] != b.Wz[i] {
			t.Fatalf("wz[%d]: %v and %v with the same seed", i, a.Wz[i], b.Wz[i])
		}
	}
	if a.C != b.C || a.V[3] != b.V[3] {
		t.Fatal("heads differ with the same seed")
	}
	tc.CRR.Seed = 2
	c, _, err := Train(tc)
	if err != nil {
		t.Fatal(err)
	}
	if c.Wz[0] == a.Wz[0] && c.V[0] == a.V[0] {
		t.Fatal("seed 2 gives seed 1's weights")
	}
}

// BenchmarkStep is one CRR gradient step (a batch of 64) of the default
// networks.
func BenchmarkStep(b *testing.B) {
	l, err := NewLearner(DefaultConfig(), banditPool(1000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		l.Step()
	}
}
