// Package metrics computes the numbers leolab reports about flows, from
// result.Flow series (sim, emu, net and iperf3 logs alike): per-flow
// throughput, RTT inflation, retransmissions per GB and p95 RTT; fairness
// across concurrent flows and the two-flow phase plane (seed 000); the
// seed-000 M/G/1 queue estimate and BBRv3 fluid model; the breakdown by
// second within Starlink's 15 s reconfiguration slot (seed 001); seed 002's
// goodput ratio, normalised aggregate goodput, delay inflation and goodput
// CDF; means over runs with t-based 95 % confidence intervals; and
// Spearman rank correlation for campaigns.
//
// Every function is pure: inputs in, numbers out, no I/O and no clock.
// Where seed 000's text lost an equation, the definition used is stated at
// the function.
package metrics
