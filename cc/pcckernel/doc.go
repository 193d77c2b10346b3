// Package pcckernel owns "pcc-kernel", a model of the PCC congestion
// control that the seed-000 Starlink dataset actually ran: the Linux
// module of PCCproject/PCC-Kernel, branch master, src/tcp_pcc.c, which is
// PCC Allegro (the loss-based PCC v1), not PCC Vivace. Package cc/vivace
// is Vivace after the authors' user-space code (PCC-Uspace); this package
// exists because the dataset's "pcc" runs behave nothing like it (60–86
// Mbit/s alone on the downlink with 10–47 % of the segments sent
// retransmitted) and that behaviour follows from the module's own rules.
//
// The model follows the module's structure, rule for rule:
//
//   - Intervals are ranges of segments sent (data_segs_out, retransmissions
//     included). Per ACK, the growth of the connection's delivered and lost
//     segment counts is added to the interval currently receiving results,
//     except for the first and last five segments of each interval. An
//     interval stops sending once it holds 40 segments (35 outside decision
//     making) and data sent after it started has been accounted, so about
//     one RTT; results are taken once its last segments are accounted.
//   - Utility is Allegro's sigmoid: u = r(1−L)/(1+e^{100(L−0.05)}) − rL
//     below 15 % loss and −rL above, in the module's fixed point, with r
//     the interval's target rate (not what was delivered). It is zero at
//     L ≈ 7.4 %.
//   - Slow start grows the rate by one interval's delivered bytes while the
//     rate-normalised utility rises; decision making sends four intervals
//     at r(1±ε), two pairs in random order, and moves only when both pairs
//     agree; rate adjustment keeps stepping by ε·r (ε growing 1 % a step up
//     to 5 %) while utility improves and falls back to the last rate and to
//     decision making when it does not.
//   - The pacing rate is the interval's rate, the window 2·rate·SRTT (at
//     least four segments), ssthresh infinite, and there is no window
//     reduction on loss. An RTO freezes the accounting (the module's LOSS
//     mode) and keeps the rate; leaving it restarts decision making.
//
// Losses are marked after the deliveries around them, so they land in
// later intervals than the data that was lost, and many intervals see
// none: with L = 0 the utility is proportional to r, the higher probe wins
// and the rate ratchets up without bound until the receive window, not the
// controller, limits the flow.
package pcckernel
