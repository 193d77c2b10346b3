package learn

import (
	"math"
	"slices"
	"testing"
)

// The reward's preferences, checked by changing one field of one real
// interval of the Sydney downlink BBR trace and recomputing its references
// from the whole modified series (the reward sees a row only through its
// ±w window).

// burstRow returns the first row of phase ph that is its own window's
// retransmission peak (τ_i = τ_max,i, below the trace's largest count) with a
// full ±w window and U > 0.5. Raising such a row's count widens its
// envelope τ_max while τ_ref stays: over 21 values Q0.95 interpolates at
// rank 19 of 0…20, the second largest, which a higher peak does not move.
// (Raising an ordinary row instead makes it the peak and pushes the old
// peak into τ_ref, and the normalised cost can fall: the reward judges
// retransmissions against the local regime, eq. 7.)
func burstRow(t *testing.T, p *Pool, ph Phase, maxTau int64) Row {
	t.Helper()
	w := p.Params.HalfWindow
	for _, r := range p.Rows {
		full := r.Index >= w && r.Index < len(p.Rows)-w
		if r.Phase == ph && full && float64(r.Retransmits) == r.Refs.TauMax && r.Retransmits < maxTau && r.Refs.U > 0.5 {
			return r
		}
	}
	t.Skipf("no %v row is its window's retransmission peak", ph)
	return Row{}
}

func refsWith(tr Trace, i int, change func(*Sample), p Params) Refs {
	s := slices.Clone(tr.Samples)
	change(&s[i])
	return ComputeRefs(s, p)[i]
}

func maxRetransmits(tr Trace) int64 {
	var m int64
	for _, s := range tr.Samples {
		m = max(m, s.Retransmits)
	}
	return m
}

func TestRewardPrefersLowerGainsUnderRetransmissions(t *testing.T) {
	tr := sydneyDownBBR(t)
	p := NewPool()
	if err := p.Add(tr); err != nil {
		t.Fatal(err)
	}
	prm := p.Params
	tauMax := maxRetransmits(tr) // a count this path really produced in one second
	for _, ph := range []Phase{Up, Down} {
		r := burstRow(t, p, ph, tauMax)
		burst := refsWith(tr, r.Index, func(s *Sample) { s.Retransmits = tauMax }, prm)
		if burst.TauMax <= r.Refs.TauMax || burst.TauRef != r.Refs.TauRef {
			t.Fatalf("%v row %d: envelope %g → %g, τ_ref %g → %g", ph, r.Index, r.Refs.TauMax, burst.TauMax, r.Refs.TauRef, burst.TauRef)
		}
		// The advantage of the phase's most aggressive gain over its
		// gentlest (1.25 over 1.05 in UP; 0.98 over 0.90 in DOWN) must
		// shrink when the row retransmits heavily: τ̂ grows with g, and
		// the envelope it is scaled by just widened.
		lo, hi := Feasible(ph)[0], Feasible(ph)[len(Feasible(ph))-1]
		before := r.Refs.Reward(hi, prm) - r.Refs.Reward(lo, prm)
		after := burst.Reward(hi, prm) - burst.Reward(lo, prm)
		t.Logf("%v row %d: τ %d → %d (envelope %g → %g): R(%g) − R(%g) = %.5f → %.5f",
			ph, r.Index, r.Retransmits, tauMax, r.Refs.TauMax, burst.TauMax, hi, lo, before, after)
		if !(after < before) {
			t.Errorf("%v row %d: R(%g) − R(%g) went %.6f → %.6f, want lower", ph, r.Index, hi, lo, before, after)
		}
	}
}

func TestRewardPenaltyOnProbingScalesWithUtilization(t *testing.T) {
	tr := sydneyDownBBR(t)
	p := NewPool()
	if err := p.Add(tr); err != nil {
		t.Fatal(err)
	}
	prm := p.Params
	// A real UP row, made idle: its throughput set to the trace's 5th
	// percentile interval and its RTT to the window's unloaded RTT (no
	// queue), both values the path itself showed.
	var r Row
	for _, x := range p.Rows {
		if x.Phase == Up && x.Refs.U == 1 {
			r = x
			break
		}
	}
	if r.Phase != Up {
		t.Fatal("no saturated UP row")
	}
	b := make([]float64, len(tr.Samples))
	for i, s := range tr.Samples {
		b[i] = s.Throughput
	}
	idle := refsWith(tr, r.Index, func(s *Sample) {
		s.Throughput = quantile(b, 0.05)
		s.RTT = seconds(r.Refs.RTTMin)
	}, prm)
	if idle.UDelay != 0 || !(idle.U < 0.5*r.Refs.U) {
		t.Fatalf("row %d made idle: U %g (delay part %g), was %g", r.Index, idle.U, idle.UDelay, r.Refs.U)
	}
	// Above g = 1 every gain earns the same throughput (eq. 22) and both
	// penalties, L (eq. 25) and λ2·U·(g−1), are linear in U while the
	// retransmission references do not move: the cost of probing at 1.25
	// rather than 1.05 must scale exactly with U (to float rounding, 1e-9),
	// so a lightly used path is nearly free to probe hard.
	cost := func(x Refs) float64 { return x.Reward(1.05, prm) - x.Reward(1.25, prm) }
	if idle.TauRef != r.Refs.TauRef || idle.TauMax != r.Refs.TauMax {
		t.Fatalf("retransmission references moved: %+v vs %+v", idle, r.Refs)
	}
	want := cost(r.Refs) * idle.U / r.Refs.U
	t.Logf("UP row %d: U %.3f → %.3f; cost of 1.25 over 1.05 %.5f → %.5f", r.Index, r.Refs.U, idle.U, cost(r.Refs), cost(idle))
	if math.Abs(cost(idle)-want) > 1e-9 || !(cost(idle) < cost(r.Refs)) {
		t.Errorf("cost at low U %.9f, want %.9f (< %.9f)", cost(idle), want, cost(r.Refs))
	}
	// And drains lose throughput regardless: in DOWN, a lower gain always
	// delivers less (B̂ ∝ g below 1), and at low U nothing offsets it, so
	// the reward rises from 0.90 to 0.98.
	prev := math.Inf(-1)
	for _, g := range Feasible(Down) {
		v := idle.Reward(g, prm)
		if v <= prev {
			t.Errorf("low U: R(%g) = %g not above %g", g, v, prev)
		}
		prev = v
	}
}
