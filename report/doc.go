// Package report owns leolab's presentation layer: the figures of the papers
// (seed 000 Fig. 9/10 throughput vs RTT inflation, per-interval time series,
// the two-flow phase plane, the M/G/1 queue over time, the 15 s
// reconfiguration-slot profile, Pantheon's throughput vs 95th-percentile delay
// scatter) rendered with gonum/plot to PNG and SVG, the tables behind them
// (HTML and CSV, headers generated from one column schema), and a
// self-contained HTML report that inlines its SVG figures and its CSS.
//
// The package computes no metrics. It takes small plain input types
// (FlowSummary, Series, PhasePlane, SlotProfile, Table) that callers fill from
// whatever produced the numbers (metrics, iperf3 logs, leolab results), so it
// depends on nothing of leolab's.
//
// Every CCA is drawn in the same colour in every plot (CCAColor), so readers
// can follow one algorithm across figures.
package report
