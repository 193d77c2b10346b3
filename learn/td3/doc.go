// Package td3 owns TD3 (Fujimoto, van Hoof and Meger, "Addressing
// Function Approximation Error in Actor-Critic Methods", ICML 2018), the
// learner of Orca: a deterministic actor, twin critics with clipped
// double-Q targets, target-policy smoothing and delayed policy and target
// updates (td3.go), over small dense networks trained with Adam in plain
// Go (mlp.go) and a replay buffer (replay.go); train.go is the loop that
// alternates collecting episodes in learn/rlenv with updates.
//
// Why plain Go and not gomlx: TD3's updates are thousands of tiny steps
// (a 128-sample batch through 64-wide layers) interleaved with
// simulation, where a graph framework's per-call overhead would dominate;
// the networks are small enough that a hand-written backward pass is
// short, exact and testable against finite differences (mlp_test.go), and
// the actor's arithmetic is the very one cc/orca and cc/astraea run at
// inference (its weights are exported as actor.Layer and collected with
// actor.Actor, learn/actor).
package td3
