package learn

import "math"

// Reward is R(s_i, g) = B̂_i(g)/B_i^ref − λ1·τ̂_i(g)/τ_i^ref − λ2·U_i·max(g−1, 0)
// (paper 003 eq. 16): throughput credit, minus the surrogate's
// retransmission cost, minus a penalty on probing above 1 that grows with
// utilization. B̂/B_ref is min(g, 1) since B_cap = B_ref (eqs. 6, 21); it is
// taken as such also when B_ref is 0, as the repository does
// (utils/starlink_preprocessing.py, _candidate_reward).
func (r Refs) Reward(g float64, p Params) float64 {
	return min(g, 1) - p.Lambda1*r.Retransmits(g, p)/r.TauRef - p.Lambda2*r.U*max(g-1, 0)
}

// Expert is the expert label a* = argmax over phase ph's feasible gains of
// R(s_i, g) (eq. 17), and its reward. Equal rewards go to the lowest gain:
// the least aggressive of equally good choices, and deterministic.
func (r Refs) Expert(ph Phase, p Params) (gain, reward float64) {
	gain, reward = math.NaN(), math.Inf(-1)
	for _, g := range Feasible(ph) {
		if v := r.Reward(g, p); v > reward {
			gain, reward = g, v
		}
	}
	return gain, reward
}
