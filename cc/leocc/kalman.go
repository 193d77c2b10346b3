package leocc

import "math"

// kalman is LeoCC's scalar Kalman filter with a random-walk state model
// (leocc_main): each update first adds the process noise q to the
// variance p, then blends in the measurement z with gain k = p/(p+r).
// With q = r = 4 the gain sequence does not depend on the data and
// converges to (√5−1)/2 whatever the units of z.
type kalman struct {
	x, p, k float64 // estimate, its variance, last gain
	q, r    float64
	n       int // updates so far
}

// newKalman returns a filter with estimate 0 and variance p0, as the
// module's leocc_init (bw_hat_post = rtt_hat_post = 0, p_post = 25).
func newKalman(q, r, p0 float64) kalman { return kalman{p: p0, q: q, r: r} }

// update blends in measurement z and returns the new estimate.
func (f *kalman) update(z float64) float64 {
	f.p += f.q
	f.k = f.p / (f.p + f.r)
	f.x += f.k * (z - f.x)
	f.p *= 1 - f.k
	f.n++
	return f.x
}

// steadyGain is the limit of k for a random walk with noises q and r:
// the positive root of p² + q·p − q·r = 0 for the posterior variance p,
// then k = (p+q)/(p+q+r).
func steadyGain(q, r float64) float64 {
	p := (-q + math.Sqrt(q*q+4*q*r)) / 2
	return (p + q) / (p + q + r)
}
