package vivace

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
)

func newTest(t testing.TB) *Vivace {
	v, err := New(cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		t.Fatal(err)
	}
	v.srtt = 50 * time.Millisecond
	v.started = true
	return v
}

// finish fills the planned MIs as if all their bytes were acknowledged
// without loss or RTT change (utility x^0.9), lost[i] marking loss rates.
func finish(v *Vivace, loss [4]float64) {
	for i := range v.nPlan {
		v.mis[i].begin(v.plan[i], 0, time.Millisecond, 0)
		v.mis[i].acked = int64(1e6 * (1 - loss[i]))
		v.mis[i].lost = int64(1e6 * loss[i])
	}
	v.decide()
}

const mbit = 1e6 / 8 // bytes/s per Mbit/s

// Starting doubles while utility grows and, when it falls, probes around
// the last rate that improved it.
func TestStarting(t *testing.T) {
	v := newTest(t)
	v.rate, v.mode = 10*mbit, ModeStarting
	v.planRound()
	finish(v, [4]float64{})
	finish(v, [4]float64{})
	if v.rate != 40*mbit || v.mode != ModeStarting {
		t.Fatalf("rate %v Mbit/s mode %d after two good MIs from 10, want 40 starting", v.rate/mbit, v.mode)
	}
	finish(v, [4]float64{0.5}) // 40 Mbit/s with 50% loss: utility falls
	if v.rate != 20*mbit || v.mode != ModeProbing || v.nPlan != 4 {
		t.Fatalf("rate %v mode %d plan %d, want probing at 20", v.rate/mbit, v.mode, v.nPlan)
	}
}

// Both pairs favour r(1+ε): move to r(1+ε) + θ0·γ with γ the utility
// gradient (105^0.9 − 95^0.9)/10 per Mbit/s; the probe order is random but
// each pair holds one of each rate.
func TestProbingAgreement(t *testing.T) {
	v := newTest(t)
	v.rate, v.mode = 100*mbit, ModeProbing
	v.planRound()
	for j := 0; j < 4; j += 2 {
		if v.plan[j]+v.plan[j+1] != 200*mbit || v.plan[j] == v.plan[j+1] {
			t.Fatalf("pair %v, %v: want 105 and 95 Mbit/s", v.plan[j]/mbit, v.plan[j+1]/mbit)
		}
	}
	finish(v, [4]float64{})
	gamma := (math.Pow(105, 0.9) - math.Pow(95, 0.9)) / 10
	if want := (105 + gamma) * mbit; v.mode != ModeMoving || v.dir != 1 || math.Abs(v.rate-want) > 1e-6 {
		t.Fatalf("mode %d dir %d rate %v Mbit/s, want moving up to %v", v.mode, v.dir, v.rate/mbit, want/mbit)
	}
	// Moving: utility rose again, so continue with m = 2.
	r0 := v.rate
	finish(v, [4]float64{})
	if v.moves != 2 || v.rate <= r0 {
		t.Fatalf("moves %d rate %v after an improving move, want 2 and > %v", v.moves, v.rate/mbit, r0/mbit)
	}
	// Utility falls: back to the last good rate and probe.
	good := v.refRate
	finish(v, [4]float64{0.3})
	if v.mode != ModeProbing || v.rate != good {
		t.Fatalf("mode %d rate %v after a worse MI, want probing at %v", v.mode, v.rate/mbit, good/mbit)
	}
}

// Pairs that disagree leave the rate alone and probe again.
func TestProbingDisagreement(t *testing.T) {
	v := newTest(t)
	v.rate, v.mode = 100*mbit, ModeProbing
	v.planRound()
	var loss [4]float64
	for i := range 4 { // lose 20% in the first pair's higher and the second pair's lower rate
		if (i < 2) == (v.plan[i] > v.rate) {
			loss[i] = 0.2
		}
	}
	finish(v, loss)
	if v.mode != ModeProbing || v.rate != 100*mbit {
		t.Fatalf("mode %d rate %v, want probing again at 100", v.mode, v.rate/mbit)
	}
}

// A steep gradient is clipped to the boundary ω0·r = 5% and the boundary
// widens by δ = 0.1 for the next move.
func TestChangeBoundary(t *testing.T) {
	v := newTest(t)
	v.rate, v.moves = 100*mbit, 1
	if d := v.rateChange(1000); d != 5*mbit || v.steps != 1 {
		t.Fatalf("change %v Mbit/s steps %d, want 5 and 1", d/mbit, v.steps)
	}
	if d := v.rateChange(1000); math.Abs(d-15*mbit) > 1e-6 || v.steps != 2 {
		t.Fatalf("change %v Mbit/s steps %d, want 15 and 2", d/mbit, v.steps)
	}
	if d := v.rateChange(0.1); d != minRateChange || v.steps != 1 {
		t.Fatalf("change %v steps %d, want the 0.5 Mbit/s minimum and 1", d/mbit, v.steps)
	}
}
