package learn

import (
	"math"
	"slices"
)

// Refs are the per-interval references the reward and the surrogates are
// computed against, all from the centered ±w window of the interval.
type Refs struct {
	BRef     float64 // B_i^ref = Q0.95(b) over the window (eq. 6), bits/s; also B_cap of eq. 21
	TauRef   float64 // τ_i^ref = Q0.95(τ) over the window + 1 (eq. 7); ≥ 1
	TauMin   float64 // τ_min: the trace's smallest per-interval retransmissions (eq. 27)
	TauMax   float64 // τ_max,i: the window's largest per-interval retransmissions (eq. 27)
	RTTMin   float64 // RTT_min: the window's smallest logged RTT, seconds (§III.A.2)
	QueueRef float64 // q_i^ref = min(Q0.95(qd), 0.15·RTT_min) (eq. 8), seconds
	URate    float64 // U_rate = B_i = min(b/B_ref, 1) (eqs. 4, 9)
	UDelay   float64 // U_delay = min(qd/q_ref, 1) (eq. 10)
	U        float64 // hybrid utilization max(U_rate, U_delay) (eq. 11)
	BNorm    float64 // B̄_i = b_i / max_j b_j over the trace (eq. 2's utilization proxy)
}

// ComputeRefs computes every interval's references (paper 003 eqs. 2, 4–11,
// 27). Unlogged RTTs (0) are left out of RTT_min and give no queuing delay,
// so a trace without RTTs has U = U_rate. A zero reference gives a zero
// ratio (no throughput seen, or no queue at all in the window).
func ComputeRefs(s []Sample, p Params) []Refs {
	n := len(s)
	b, tau, rtt := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, x := range s {
		b[i], tau[i], rtt[i] = x.Throughput, float64(x.Retransmits), x.RTT.Seconds()
	}
	q := func(x []float64) float64 { return quantile(x, p.RefQuantile) }
	w := p.HalfWindow
	bRef := rolling(b, w, q)
	tauRef := rolling(tau, w, q)
	tauMax := rolling(tau, w, slices.Max)
	rttMin := rolling(rtt, w, minPositive)
	qd := make([]float64, n)
	for i := range rtt {
		if rtt[i] > 0 {
			qd[i] = max(rtt[i]-rttMin[i], 0) // §III.A.2: qd_i = max(RTT_i − RTT_min, 0)
		}
	}
	qdRef := rolling(qd, w, q)
	var tauMin, bMax float64
	if n > 0 {
		tauMin, bMax = slices.Min(tau), slices.Max(b)
	}
	out := make([]Refs, n)
	for i := range s {
		r := Refs{BRef: bRef[i], TauRef: tauRef[i] + 1, TauMin: tauMin, TauMax: tauMax[i], RTTMin: rttMin[i],
			QueueRef: math.Min(qdRef[i], p.QueueRefRTTFrac*rttMin[i])}
		r.URate = ratio1(b[i], r.BRef)
		r.UDelay = ratio1(qd[i], r.QueueRef)
		r.U = max(r.URate, r.UDelay)
		r.BNorm = ratio1(b[i], bMax)
		out[i] = r
	}
	return out
}

// ratio1 is min(x/ref, 1), 0 when ref is 0.
func ratio1(x, ref float64) float64 {
	if ref <= 0 {
		return 0
	}
	return min(x/ref, 1)
}
