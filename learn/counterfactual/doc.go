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
// One replay's reward is a deterministic but erratic function of the gain:
// a 0.1 % change of the pacing rate moves packets across the link's frame
// boundaries. Options.Replays K scores each gain as the mean of K replays
// with the held gain dithered within ±DitherWidth (0.5 %, inside every
// gain's own bin), the reward a gain can expect over a frame alignment no
// sender controls; Options.Noise measures each label's resolution by
// replaying its best gain at g·(1+NoiseStep) with the same dither.
//
// Files: probe.go the controller wrapper that counts and overrides,
// replay.go the base run and the replays, reward.go the measured reward,
// label.go decision sampling, parallel replays and the labelled pool rows.
// Everything is a deterministic function of the scenario, the seed and the
// options: replays run on workers, results are merged in decision order.
package counterfactual
