// Package sage owns the training of Sage (cc/sage): offline
// reinforcement learning from the "collective knowledge" of heuristic
// controllers (Yen, Abbasloo, Chao et al., SIGCOMM 2023).
//
//   - pool.go: the pool: runs of leolab's heuristic controllers (CUBIC,
//     Reno, Vegas, BBRv1, BBRv3, Hybla, Copa) over learn/rlenv's
//     randomised dumbbells, each monitor period recorded as Sage's state,
//     the heuristic's implied action (the log2 ratio of its window from
//     one period to the next) and Sage's reward.
//   - gru.go: the recurrent policy (cc/sage's GRU and head) with
//     backpropagation through time.
//   - mlp.go: the critic, a small MLP, and Adam with gradient clipping.
//   - crr.go: critic-regularised regression (Wang et al., NeurIPS 2020;
//     the authors' sage_rl/offline/crr2.py): the critic learns Q of the
//     learned policy by TD over the pool's transitions, and the policy
//     maximises the pool actions' likelihood weighted by
//     min(exp(A/β), 20), A = Q(s,a) − E_{a'~π} Q(s,a'). The critic here
//     is a plain (not distributional) regression: ours.
//   - train.go: collection, then CRR; nothing interacts with the
//     simulator while learning.
//
// Determinism: the pool's runs are merged by index (learn/rlenv), and
// learning runs on one goroutine from streams of the seed, so the same
// configuration gives the same weights.
package sage
