// Package paper000 builds the figures of seed 000 that `leolab reproduce
// --paper 000` adds to the campaign's Figs. 9–10: the BBRv3 fluid model
// fitted to a trace (Fig. 11), reaction windows (Fig. 12), the M/G/1 queue
// over time (Fig. 13), per-CCA fairness scores (Fig. 14), two BBRv3 flows
// simultaneous and staggered (Fig. 15) and the 15 s slot profile — each
// simulated next to real wherever the real data has it, with what the paper
// reports in the caption and a closing section on where we differ.
//
// It reads simulated series from a campaign store and real ones from the
// embedded Sydney traces (realtraces/README.md); the numbers come from
// package metrics, the figures from package report. It prints nothing.
package paper000
