package sage

import (
	"math"
	"testing"
	"time"
)

// A short pool: two heuristics on two 3 s links. Every period has a
// state, every transition an action in [−2, 2] and a reward within Sage's
// ±25; CUBIC's slow start doubles its window per RTT, so its
// largest per-period action is positive, and the rewards of a run that
// fills the link reach a good share of 25.
func TestCollect(t *testing.T) {
	d := PoolDist()
	d.Duration = 3 * time.Second
	pool, err := Collect(d, []string{"cubic", "vegas"}, 7, 0, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(pool) != 4 {
		t.Fatalf("%d trajectories, want 4", len(pool))
	}
	for _, tr := range pool {
		n := tr.Len()
		// 3 s of 20 ms periods: about 150, less the first RTT
		if n < 100 || n > 150 || len(tr.A) != n || len(tr.R) != n-1 {
			t.Fatalf("%s %v: %d states, %d actions, %d rewards", tr.CCA, tr.Episode, n, len(tr.A), len(tr.R))
		}
		maxA, maxR := -3.0, -100.0
		for i, a := range tr.A[:n-1] {
			if !(a >= -2 && a <= 2) || tr.R[i] > 25 || tr.R[i] < -25 || math.IsNaN(float64(tr.R[i])) {
				t.Fatalf("%s: transition %d: action %v reward %v", tr.CCA, i, a, tr.R[i])
			}
			maxA, maxR = max(maxA, float64(a)), max(maxR, float64(tr.R[i]))
		}
		if maxA <= 0 || maxR < 5 {
			t.Errorf("%s %v: largest action %v, largest reward %v (want > 0 and ≥ 5)", tr.CCA, tr.Episode, maxA, maxR)
		}
	}
	again, err := Collect(d, []string{"cubic", "vegas"}, 7, 0, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pool {
		for j := range pool[i].S {
			if pool[i].S[j] != again[i].S[j] {
				t.Fatalf("trajectory %d differs with one worker", i)
			}
		}
	}
}
