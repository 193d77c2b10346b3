// Package orca owns Orca (Abbasloo, Yen and Chao, "Classic Meets Modern: a
// Pragmatic Learning-Based Congestion Control for the Internet", SIGCOMM
// 2020): CUBIC runs underneath, and every monitor period (20 ms) a TD3
// actor reads a state built from the period's throughput, loss, delay and
// window and overwrites CUBIC's window with cwnd·4^a, a ∈ [−1, 1].
//
// The state, reward and action follow the authors' code (Soheil-ab/Orca,
// rl-module/envwrapper.py and params.json; src/orca-server-mahimahi.cc):
// seven features per period, the last rec_dim = 10 periods stacked as
// the actor's input, the reward (thr − 5·loss)/max_thr scaled by a delay
// factor with margin 1.25, the window bounded to [4, 10000] segments and
// the agent silent until CUBIC first leaves slow start (features.go,
// orca.go).
//
// The actor is a small MLP evaluated in plain Go without allocating
// (learn/actor, shared with cc/astraea). Its weights are trained here, in leolab's simulator, by
// learn/td3 over learn/rlenv's randomised dumbbells (`leolab learn
// train-cca orca`) and embedded (actor.json); the authors' TensorFlow
// checkpoints are not used.
package orca
