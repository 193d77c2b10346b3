// Package counterfactual measures what each pacing gain would really have
// done at a BBR decision point, in place of paper 003's surrogate (eq. 17),
// whose argmax depends on the phase alone (it caps throughput at capacity).
//
// The simulator is deterministic, so a run can be replayed: the same
// scenario and seed reach the same decision point with the same state.
// A base run of BBRv3 (the stock gains, through bbr.GainPolicy) records
// every ProbeBW UP and DOWN entry; a replay runs the scenario again to the
// chosen entry, holds one feasible gain of the phase (eqs. 14–15) for that
// phase visit (lmbbr's decision interval: the gain chosen on entry), lets
// stock BBR finish the ProbeBW cycle, and measures the window from the
// decision to the next UP entry: delivered bytes, retransmitted segments,
// RTT samples. Eq. 16's reward is scored on those measurements (reward.go),
// the argmax is the counterfactual label, and every gain's reward is kept.
//
// Files: probe.go the controller wrapper that counts and overrides,
// replay.go the base run and the replays, reward.go the measured reward,
// label.go decision sampling, parallel replays and the labelled pool rows.
// Everything is a deterministic function of the scenario, the seed and the
// options: replays run on workers, results are merged in decision order.
package counterfactual
