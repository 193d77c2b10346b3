package td3

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/leolab/leolab/learn/rlenv"
)

// A contextual bandit with a known optimum: state s ~ U(−1, 1), reward
// −(a − s/2)², the next state independent of the action. TD3 must find
// π(s) ≈ s/2 within 0.1 over the state range.
func TestLearnsBandit(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Hidden = []int{32, 32}
	cfg.LRActor = 1e-3
	cfg.PolicyDelay = 2
	a, err := New(1, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	rb := NewReplay(5000)
	for range 5000 {
		s := 2*r.Float64() - 1
		act := 2*r.Float64() - 1
		rb.Add(Sample{S: []float32{float32(s)}, A: float32(act), R: float32(-(act - s/2) * (act - s/2)),
			S2: []float32{float32(2*r.Float64() - 1)}})
	}
	for range 4000 {
		a.Update(rb)
	}
	var tp tape
	for _, s := range []float64{-0.9, -0.5, 0, 0.5, 0.9} {
		got := a.actor.forward([]float64{s}, 1, &tp)[0]
		if math.Abs(got-s/2) > 0.1 {
			t.Errorf("π(%v) = %.3f, want %.3f ± 0.1 (critic loss %.4f)", s, got, s/2, a.CriticLoss)
		}
	}
}

// Same seed and data → identical weights.
func TestDeterministic(t *testing.T) {
	run := func() []float32 {
		a, _ := New(3, DefaultConfig(), 9)
		rb := NewReplay(100)
		r := rand.New(rand.NewPCG(1, 1))
		for range 100 {
			rb.Add(Sample{S: []float32{r.Float32(), r.Float32(), r.Float32()}, A: r.Float32(), R: r.Float32(),
				S2: []float32{r.Float32(), r.Float32(), r.Float32()}})
		}
		for range 20 {
			a.Update(rb)
		}
		return a.ActorLayers()[0].W
	}
	x, y := run(), run()
	for i := range x {
		if x[i] != y[i] {
			t.Fatalf("weight %d: %v vs %v", i, x[i], y[i])
		}
	}
}

// The ring buffer keeps the newest size samples.
func TestReplayRing(t *testing.T) {
	rb := NewReplay(3)
	for i := range 5 {
		rb.Add(Sample{R: float32(i)})
	}
	seen := map[float32]bool{}
	for _, s := range rb.buf {
		seen[s.R] = true
	}
	if rb.Len() != 3 || !seen[2] || !seen[3] || !seen[4] {
		t.Fatalf("ring holds %v", rb.buf)
	}
}

func BenchmarkUpdate(b *testing.B) {
	a, _ := New(70, DefaultConfig(), 1)
	rb := NewReplay(1000)
	r := rand.New(rand.NewPCG(1, 1))
	for range 1000 {
		s, s2 := make([]float32, 70), make([]float32, 70)
		for i := range s {
			s[i], s2[i] = r.Float32(), r.Float32()
		}
		rb.Add(Sample{S: s, S2: s2, A: r.Float32(), R: r.Float32()})
	}
	b.ReportAllocs()
	for b.Loop() {
		a.Update(rb)
	}
}

// Utilisation counts bytes over the episode, so a late competitor does
// not push it over 1.
func TestUtilisationBytes(t *testing.T) {
	c := rlenv.Collector{Dist: rlenv.DefaultDist(), Task: rlenv.OrcaTask(), Workers: 1}
	c.Dist.Duration = 3 * time.Second
	c.Dist.Competitors = 1
	for i := range 8 {
		e, err := c.Run(5, i, zero{})
		if err != nil {
			t.Fatal(err)
		}
		if u := Utilisation(e); u <= 0 || u > 1.001 {
			t.Fatalf("%s: utilisation %.3f", e.Episode, u)
		}
	}
}

type zero struct{}

func (zero) Act([]float32) float32 { return 0 }
