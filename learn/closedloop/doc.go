// Package closedloop owns the closed-loop evaluation of BBR gain
// policies (issue 21's `leolab learn eval`): the same Starlink scenario
// run in the simulator for each arm — a learned model, stock BBRv3, the
// embedded linear model, a constant UP gain of 1.05 — over seeds, the
// arms paired by seed (same seed, same path, same reconfiguration
// times), and per arm the mean throughput, retransmissions per GB and
// RTT with their 95 % confidence intervals and the paired difference
// from BBRv3.
package closedloop
