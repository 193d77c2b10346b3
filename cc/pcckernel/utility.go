package pcckernel

import "math"

// Utility constants, all from PCC-Kernel master src/tcp_pcc.c (the
// module's file-scope constants used by pcc_calc_utility and
// pcc_adjust_utility). The module computes in integer fixed point; we do
// the same, so that ties (two loss-free intervals in slow start) come out
// as they do in the kernel.
const (
	// roundingFactor is the fixed-point unit (pcc_rounding_factor).
	roundingFactor = 1000
	// alpha is the sigmoid's steepness, 100 per unit of loss (pcc_alpha).
	alpha = 100
	// lossMargin is the loss in percent at the sigmoid's midpoint
	// (pcc_loss_margin).
	lossMargin = 5
	// maxLoss bounds the sigmoid's exponent, 100·(L − 0.05) < 10, i.e.
	// L < 15 %; above it the sigmoid term is zero (pcc_max_loss).
	maxLoss = 10
	// slowStartPositive and slowStartNegative scale the utility per unit
	// of rate in slow start: positive utilities by 750, negative ones by
	// 1000 (pcc_slow_start_threshold, pcc_slow_start_threshold_base).
	slowStartPositive = 750
	slowStartNegative = 1000
)

// noUtility marks an interval for which nothing was accounted (the
// module's S64_MIN in pcc_calc_utility): it loses every comparison.
const noUtility = math.MinInt64

// fixedExp returns e^(x/1000)·1000 by the module's truncated Taylor
// series (PCC-Kernel master src/tcp_pcc.c pcc_exp): terms are added until
// one truncates to zero.
func fixedExp(x int64) int64 {
	term, sum := int64(roundingFactor), int64(roundingFactor)
	for i := int64(1); term != 0; i++ {
		term = term * x / i / roundingFactor
		sum += term
	}
	return sum
}

// utility is Allegro's utility of an interval sent at rate bytes/s with
// lost and delivered segments (PCC-Kernel master src/tcp_pcc.c
// pcc_calc_utility): with L = lost/(lost+delivered),
//
//	u = r·(1−L)/(1+e^{100(L−0.05)}) − r·L   for L < 15 %,
//	u = −r·L                               otherwise,
//
// in bytes/s, truncated as the module's integer arithmetic truncates.
// Nothing accounted gives noUtility.
func utility(rate, lost, delivered int64) int64 {
	if lost+delivered == 0 {
		return noUtility
	}
	// loss in units of 1/(alpha·roundingFactor) = 10^-5
	loss := lost * roundingFactor * alpha / (lost + delivered)
	x := loss - lossMargin*roundingFactor
	var u int64
	if x < maxLoss*roundingFactor {
		u = rate * roundingFactor / (fixedExp(x) + roundingFactor)
	}
	u = u * (roundingFactor*alpha - loss) / (roundingFactor * alpha)
	return u - rate*loss/(alpha*roundingFactor)
}

// slowStartScore is the utility per unit of rate that slow start compares
// (PCC-Kernel master src/tcp_pcc.c pcc_adjust_utility): u·750/rate for a
// positive utility, u·1000/rate for a negative one, noUtility kept. The
// module passes the rate as a u32.
func slowStartScore(u, rate int64) int64 {
	if u == noUtility {
		return noUtility
	}
	r := int64(uint32(rate))
	if r == 0 {
		return noUtility
	}
	if u < 0 {
		return u * slowStartNegative / r
	}
	return u * slowStartPositive / r
}
