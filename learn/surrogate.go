package learn

import "math"

// The trace-driven surrogates of paper 003 §IV.B–C estimate what an
// interval would have delivered and retransmitted under pacing gain g,
// without replaying TCP.

// Throughput is B̂_i(g) = B_cap,i · min(g, 1) (eqs. 21–22), bits/s: above 1
// the sender only queues at the bottleneck, below 1 it delivers
// proportionally less. B_cap is the rolling 95th percentile, i.e. BRef.
func (r Refs) Throughput(g float64) float64 {
	return r.BRef * min(g, 1)
}

// Retransmits is τ̂_i(g) = τ_min + (τ_max,i − τ_min)·L_i(g) (eq. 27): the
// interval's retransmissions placed in its local congestion envelope by the
// loss factor L (eqs. 23–26).
func (r Refs) Retransmits(g float64, p Params) float64 {
	return r.TauMin + (r.TauMax-r.TauMin)*r.LossFactor(g, p)
}

// LossFactor is L_i(g) = U_i·[ε + (1−ε)·Φ(g)] (eq. 25), scaled by
// 1 − κdown·(1−g) for drain gains g < 1 (eq. 26), clamped to [0, 1]:
// retransmissions grow only when the path is utilized and the probe is
// aggressive.
func (r Refs) LossFactor(g float64, p Params) float64 {
	l := r.U * (p.Epsilon + (1-p.Epsilon)*ProbeComponent(g, p))
	if g < 1 {
		l *= 1 - p.KappaDown*(1-g)
	}
	return min(max(l, 0), 1)
}

// ProbeComponent is Φ(g) = (S(g)/S(G_max))^α (eq. 24): 0 at and below 1,
// 1 at G_max = 1.25, superlinear in between.
func ProbeComponent(g float64, p Params) float64 {
	smax := probeStrength(MaxGain, p)
	if smax <= 0 {
		return 0
	}
	return math.Pow(probeStrength(g, p)/smax, p.Alpha)
}

// probeStrength is S(g) = max(softplus(β(g−1)) − softplus(0), 0) (eq. 23),
// zero in cruise so cruising carries no probe penalty.
func probeStrength(g float64, p Params) float64 {
	return max(softplus(p.Beta*(g-1))-softplus(0), 0)
}

// softplus is ln(1 + e^x), computed without overflow for large x.
func softplus(x float64) float64 {
	if x > 30 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}
