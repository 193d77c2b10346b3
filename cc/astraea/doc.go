// Package astraea owns Astraea (Liao, Tian, Zeng, Wan and Chen, "Astraea:
// Towards Fair and Efficient Learning-based Congestion Control", EuroSys
// 2024): a learned window controller whose policy, one set of weights
// shared by every flow, sets each flow's congestion window every monitor
// period from that flow's own measurements, and which is trained with
// several flows competing on one bottleneck under a reward that scores
// their fairness as well as throughput, delay and loss.
//
// What is the paper's and what is ours: the paper's are the design points
// above (multi-agent training of a shared per-flow policy in multi-flow
// episodes with staggered starts, an actor–critic learner, a reward
// combining throughput, delay, loss and fairness, local per-flow state at
// inference). Only the paper's abstract was available here
// (arXiv 2403.01798; the authors' code was not), so the exact features,
// action scale, reward weights and learner below are ours and are named
// as such where they are defined:
//
//   - features.go: six features per 20 ms period (throughput over the
//     flow's largest, queueing delay over min RTT, loss fraction, the
//     flow's own packets in the queue, window over the flow's largest
//     BDP, last action), five periods stacked; the local reward and the
//     fairness-aware reward over all flows (FairReward).
//   - astraea.go: the controller (slow start until the first loss or
//     queue build-up, then each period cwnd += 2a segments for a ≥ 0 and
//     cwnd ← cwnd·2^(a/2) for a < 0, paced at
//     Linux's ratios) and its registration.
//
// The actor is the dense network and file format learned controllers
// share (learn/actor, over StateDim inputs), evaluated without allocating. Its weights are trained
// here by learn/td3 (TD3, an off-policy actor–critic of the DDPG family)
// over learn/rlenv's self-play dumbbells (`leolab learn train-cca
// astraea`) and embedded (actor.json); the authors' weights are not used.
package astraea
