// Package paper003 builds the measurement side of seed 003 ("SLM-guided
// BBR over Starlink"), its Figs. 2–5, for `leolab reproduce --paper 003`:
// per city, box plots of throughput, retransmissions, cwnd, RTT and RTT
// variance for BBR, CUBIC, Vegas and Hybla, dedicated ("independent") and
// concurrent ("competing"), downlink and uplink, the simulator next to the
// real measurements, with the paper's statements checked against both and
// a closing section on where we differ.
//
// It owns what each box is over: the simulator's per-second samples (the
// paper's boxes, read from its text, are over the 1 s iperf3 intervals of
// a 300 s run), the real end summaries' per-run values (5 runs for most
// cells: the embedded dataset has no per-second data except three Sydney
// traces, which get their own per-second comparison), and the simulated
// per-run values beside the real ones. Tokyo is held out of every fit in
// leolab (shared/data README) and the dataset has no Tokyo run: its boxes
// are the model's prediction. It also owns Fig. 9, the learned gain
// controller on held-out Tokyo: the surrogate evaluation of the shipped
// model (package learn's functions, nothing retrained) and its
// closed-loop runs (package learn/closedloop) beside it.
//
// The numbers come from package metrics (metrics.Box), the figures from
// package report. It reads no clock and prints nothing.
package paper003
