// Package rlenv owns the training environment of leolab's learned
// congestion controllers: episodes on randomised dumbbells run through the
// simulator (netsim, our transport), with one flow driven by an agent that
// acts every monitor period through the cc interface (or, self-playing,
// with every flow an agent of one shared policy), and the experience of
// many episodes collected in parallel.
//
//   - dist.go: the distribution episodes are drawn from (bottleneck rate,
//     base RTT, buffer in BDPs, random loss, competing CUBIC flows, and
//     optionally the Starlink path's LEO dynamics instead of a fixed
//     link, self-play competitors) and the scenario each episode runs.
//   - collect.go: the agent's side (a Decider that records one
//     transition per monitor period and explores around a policy) and
//     the collector, which runs episodes on a bounded number of
//     goroutines and returns them in episode order; the Board the agent
//     flows of an episode share for rewards over all of them.
//   - orca.go: the Task of Orca (cc/orca).
//   - astraea.go: the Task and distribution of Astraea (cc/astraea):
//     2–4 self-play flows, the fairness-aware reward.
//
// Determinism: an episode's link, competitors and exploration noise all
// come from streams seeded by (seed, episode index), each episode runs
// alone in its own simulator with its own copy of the policy, and results
// are merged by index, so the transitions of a collection do not depend
// on the number of workers or on scheduling.
package rlenv
