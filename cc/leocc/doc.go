// Package leocc owns LeoCC ("leocc"), the reconfiguration-aware congestion
// controller for LEO satellite paths of Z. Lai et al., SIGCOMM'25, as its
// authors implement it in the SpaceNetLab/LeoCC kernel modules
// (leocc/simulation/leocc.c and leocc/live_network/leocc.c).
//
// LeoCC is BBRv1 (Linux net/ipv4/tcp_bbr.c) with four additions, all state
// per flow:
//
//   - A reconfiguration trigger. From a schedule: within window (100 ms)
//     before each boundary of the link's schedule (cc.Config.Schedule; or a
//     fixed period and offset given as parameters, as the simulation
//     module's 15 s period and 12 s offset). Or from detection: a gap of
//     more than 45 ms between ACKs while data is in flight (the live
//     module's monitor_ping declares a reconfiguration when its 10 ms pings
//     stop answering for more than 45 ms).
//   - ProbeRTT at the reconfiguration: in PROBE_BW ("DYNAMIC_CRUISE") the
//     trigger enters PROBE_RTT (cwnd 0.5·BDP for 200 ms and a round);
//     leaving it refreshes min_rtt to the current sample and, because the
//     trigger is set, restarts STARTUP with the max-bw filter reset to the
//     bandwidth measured after the reconfiguration (the delivery rate of
//     the ACK before the first RTT sample 45 ms below the Kalman RTT, else
//     zero). The trigger clears when that STARTUP finds the pipe full.
//   - Kalman filters (scalar, process and measurement noise 4, initial
//     variance 25) on the per-round maximum delivery rate (updated once per
//     round in PROBE_BW) and on every RTT sample. Their gains converge to
//     (√5−1)/2 ≈ 0.618 whatever the units.
//   - Under RTT fluctuation, i.e. when the Kalman RTT exceeds min_rtt +
//     delta_rtt + min_rtt_fluctuation (10 ms, the simulation module's
//     default) in PROBE_BW without a pending trigger, the model bandwidth
//     is the Kalman bandwidth instead of the max filter and the UP gain of
//     the cycle drops from 1.25 to 1.05.
//
// Params (defaults in Info.Params): trigger (0 auto: the schedule when
// the path has one, else detection; 1 schedule; 2 detection), period_s and
// offset_s (a fixed schedule in run time instead of cc.Config.Schedule,
// selected when either is given), window_ms, detect_gap_ms, delta_thresh_ms,
// delta_rtt_ms, min_rtt_fluctuation_ms (0 disables the Kalman bandwidth
// and the reduced UP gain).
//
// Inspect's "phase" uses the numbering of cc/bbr (Linux uapi enum
// tcp_bbr_phase): 1 STARTUP, 2 DRAIN, 3 UP, 4 DOWN, 5 CRUISE, 7 PROBE_RTT.
// Rates are bits/s (_bps), windows bytes, times ms.
//
// Departures from the modules, because the controller contract carries
// less than a socket: the earliest departure time is now; PROBE_RTT marks
// the transport app-limited after the ACK is processed
// (cc.AppLimitedMarker), not inside it; after an RTO cwnd drops to
// cc.MinCWnd (2 segments; Linux 1); the kernel's fixed-point arithmetic
// is floating point (its Kalman gain settles at 153/256 ≈ 0.60 instead of
// 0.618); the modules keep the UP gain in a global array shared by all
// flows and a global start stamp, here both are per flow and the periodic
// schedule counts from the run's epoch; the live module's measurement of
// min_rtt_fluctuation from pings after each reconfiguration is replaced
// by the fixed parameter.
//
// The max-bw filter and the ACK-aggregation estimator are BBR's own, from
// cc/internal/bbrfilter (shared with cc/bbr).
package leocc
