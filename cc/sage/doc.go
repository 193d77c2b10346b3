// Package sage owns Sage (Yen, Abbasloo, Chao et al., "Computers Can
// Learn from the Heuristic Designs and Master Internet Congestion
// Control", SIGCOMM 2023): a recurrent policy, learned offline from the
// trajectories of heuristic controllers (the "collective knowledge"),
// that every monitor period multiplies the congestion window by 2^a,
// a ∈ [−2, 2].
//
// What is the paper's and what is ours. The authors' (Soheil-ab/sage,
// sage_rl/src/sage.cc and sage_rl/offline/configs/config-rl-offline.yaml):
// the action cwnd ← cwnd·2^a with action_max 2 accumulated on a precise
// window (ACCUMULATE_CWND), the window bounded to [MIN_CWND 4, MAX_CWND
// 20000] segments, the single-flow reward sign·25·((thr − 2·loss)/bw)²
// times the RTT ratio (1 once min_rtt/rtt ≥ 0.8), and the CRR objective
// (learn/sage). Ours, named where they are defined: eight features per
// period (the authors' state has 69), a 20 ms period (the authors report
// every 10 ms; 20 ms is the monitor period leolab's learned controllers
// share and halves the policy's cost), a small GRU (32 units; the
// authors' LSTM has 1024) read over the last Window periods from a zero
// state, and the initial slow start of cc/astraea before the policy acts.
//
//   - features.go: the per-period features and the reward.
//   - policy.go: the GRU policy, its file format and allocation-free
//     inference.
//   - sage.go: the controller and its registration.
//
// The weights are trained here by learn/sage from runs of leolab's
// heuristic controllers over learn/rlenv's randomised dumbbells (`leolab
// learn train-cca sage`) and embedded (policy.json); the authors'
// weights are not used.
package sage
