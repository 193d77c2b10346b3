package pcckernel

import (
	"math/rand/v2"
	"testing"

	"github.com/leolab/leolab/cc"
)

// newTest builds a controller with the default parameters and the seeded
// stream seed.
func newTest(t testing.TB, seed uint64) *PCC {
	t.Helper()
	p, err := New(cc.Config{MSS: 1448, InitialCWnd: 10, Rand: rand.New(rand.NewPCG(seed, seed))})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// probing puts p in decision making at rate with ε = 1 % and no previous
// decision to repeat, and lays out the four probes.
func probing(p *PCC, rate int64) {
	p.mode, p.rate, p.lastRate, p.eps, p.lastDecision = ModeDecision, rate, rate, epsilonMin, decisionStay
	p.setupIntervals()
}

// result sets the outcome of interval i: lost out of 100 segments.
func (p *PCC) result(i int, lost int64) {
	p.iv[i].lost, p.iv[i].delivered = lost, 100-lost
}

// probeResults gives every probe at the higher rate loss hiLoss and every
// probe at the lower rate loLoss; with pair 1 given (hi2, lo2) instead
// when set.
func probeResults(p *PCC, hiLoss, loLoss int64, second ...int64) {
	for i := range numIntervals {
		h, l := hiLoss, loLoss
		if i >= 2 && len(second) == 2 {
			h, l = second[0], second[1]
		}
		if p.iv[i].rate > p.rate {
			p.result(i, h)
		} else {
			p.result(i, l)
		}
	}
}

// Both pairs loss-free: u ∝ r, so the higher probe wins both and the rate
// moves to r(1+ε) and one step of ε·r beyond it; each further improving
// interval steps again with ε one point larger, up to 5 %.
func TestDecideUpThenAdjust(t *testing.T) {
	p := newTest(t, 1)
	const r = 10_000_000
	probing(p, r)
	probeResults(p, 0, 0)
	p.decide()
	hi := int64(r * 101 / 100)
	if p.mode != ModeAdjust || p.lastDecision != decisionUp || p.lastRate != hi || p.rate != hi+hi/100 || p.eps != 1 {
		t.Fatalf("after agreeing up: mode %d decision %d last %d rate %d ε %d, want adjust, up, %d, %d, 1",
			p.mode, p.lastDecision, p.lastRate, p.rate, p.eps, hi, hi+hi/100)
	}
	for _, eps := range []int64{2, 3, 4, 5, 5, 5} {
		p.setupIntervals()
		prev := p.rate
		p.iv[0].rate = prev
		p.result(0, 0) // a higher rate loss-free: better
		p.decideAdjust()
		if want := prev + prev*eps/100; p.mode != ModeAdjust || p.eps != eps || p.rate != want || p.lastRate != prev {
			t.Fatalf("improving step: mode %d ε %d rate %d last %d, want adjust, %d, %d, %d", p.mode, p.eps, p.rate, p.lastRate, eps, want, prev)
		}
	}
	// A worse interval (loss beyond the zero-utility point) reverts to
	// the last rate, ε back to 1 %, decide again.
	last := p.lastRate
	p.setupIntervals()
	p.result(0, 10)
	p.decideAdjust()
	if p.mode != ModeDecision || p.rate != last || p.eps != 1 {
		t.Errorf("worse step: mode %d rate %d ε %d, want decision, %d, 1", p.mode, p.rate, p.eps, last)
	}
}

// Both pairs favour the lower rate (the higher probes lose 10 %): the rate
// moves down to r(1−ε) and a step of ε below it.
func TestDecideDown(t *testing.T) {
	p := newTest(t, 2)
	const r = 10_000_000
	probing(p, r)
	probeResults(p, 10, 0)
	p.decide()
	lo := int64(r * 99 / 100)
	if p.mode != ModeAdjust || p.lastDecision != decisionDown || p.rate != lo-lo/100 {
		t.Errorf("after agreeing down: mode %d decision %d rate %d, want adjust, down, %d", p.mode, p.lastDecision, p.rate, lo-lo/100)
	}
}

// Pairs that disagree (pair 0 favours up, pair 1 down) keep the rate and
// stay in decision making; a repeated stay widens ε by one point.
func TestDecideDisagree(t *testing.T) {
	for seed := range uint64(8) { // every order of the pairs
		p := newTest(t, seed)
		const r = 10_000_000
		probing(p, r)
		probeResults(p, 0, 0, 10, 0)
		p.decide()
		if p.mode != ModeDecision || p.rate != r || p.lastDecision != decisionStay || p.eps != 2 {
			t.Errorf("seed %d, disagreeing pairs: mode %d rate %d decision %d ε %d, want decision, %d, stay, 2 (a repeated stay)",
				seed, p.mode, p.rate, p.lastDecision, p.eps, r)
		}
	}
}

// The order of each pair comes from the controller's seeded stream: the
// same seed gives the same orders, and over many rounds every order
// occurs.
func TestProbeOrderSeeded(t *testing.T) {
	orders := func(seed uint64) (seq []int64) {
		p := newTest(t, seed)
		probing(p, 1_000_000)
		for range 64 {
			p.setupProbes()
			seq = append(seq, p.iv[0].rate, p.iv[2].rate)
		}
		return seq
	}
	a, b, c := orders(7), orders(7), orders(8)
	seen := map[[2]int64]bool{}
	same, differ := true, false
	for i := 0; i < len(a); i += 2 {
		same = same && a[i] == b[i] && a[i+1] == b[i+1]
		differ = differ || a[i] != c[i] || a[i+1] != c[i+1]
		seen[[2]int64{a[i], a[i+1]}] = true
	}
	if !same || !differ || len(seen) != 4 {
		t.Errorf("same seed same orders %v, other seed differs %v, orders seen %d of 4", same, differ, len(seen))
	}
}

// Slow start adds one interval's delivered bytes to the rate after the
// first interval, then ends after a second loss-free one (it scores the
// same per unit of rate), back at the rate before.
func TestSlowStart(t *testing.T) {
	p := newTest(t, 1)
	r0 := p.rate
	p.iv[0].lost, p.iv[0].delivered = 0, 30
	p.decideSlowStart()
	if want := r0 + 30*1448; p.mode != ModeSlowStart || p.rate != want || p.lastRate != r0 {
		t.Fatalf("first interval: mode %d rate %d last %d, want slow start, %d, %d", p.mode, p.rate, p.lastRate, want, r0)
	}
	p.setupIntervals()
	p.iv[0].lost, p.iv[0].delivered = 0, 33
	p.decideSlowStart()
	if p.mode != ModeDecision || p.rate != r0 {
		t.Errorf("second loss-free interval: mode %d rate %d, want decision at %d", p.mode, p.rate, r0)
	}
}
