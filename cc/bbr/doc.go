// Package bbr owns the BBR family of congestion controllers: BBRv1
// ("bbr1", Linux net/ipv4/tcp_bbr.c), BBRv2 ("bbr2", google/bbr v2alpha
// tcp_bbr2.c) and BBRv3 ("bbr3", and "bbr" as its alias as in recent Linux
// and in the real Starlink dataset; google/bbr v3 tcp_bbr.c and
// draft-ietf-ccwg-bbr). They are paced: PacingRate is positive from the
// start (startup gain × initial cwnd / srtt, 1 ms before any RTT sample)
// and then gain × bw × 0.99 (the 1% pacing margin).
//
// Shared pieces: pacing and window arithmetic with Linux's
// TSO/quantization budget (pacing.go), round counting and phases
// (state.go), and core (core.go): the state both state machines embed and
// the steps Linux's tcp_bbr.c and tcp_bbr2.c define alike (saving and
// restoring cwnd, pacing, idle restarts, PROBE_RTT's timer, v1/v2's
// full-pipe check); the windowed max filter and the ACK-aggregation
// estimator live in cc/internal/bbrfilter, shared with LeoCC. V1 has its
// own state machine (v1*.go) with v1's policer detector (ltbw.go). BBRv2 and BBRv3 share one state machine (bbr*.go):
// v3 is v2 refined, and the differences are a variant (v2.go, v3.go):
//
//	            v2alpha            v3 (Linux)                draft-ietf-ccwg-bbr
//	STARTUP     2.885 / 2.885      2.77 / 2                  2.77 / 2
//	DRAIN       1/2.885            1/2.885 ≈ 0.35            0.35
//	DOWN        0.75               0.91 (param down_gain)    0.90
//	UP cwnd     2                  2.25                      2.25
//	plateau     max bw, STARTUP    every sample, also ends UP
//	UP ends     1.25·BDP after     bandwidth plateau
//	            one min_rtt
//	loss exit   8 loss events      6 loss events
//	probe_rtt   refresh on ≤       refresh on <
//
// Both cut on loss with Linux's bbr_beta = 0.3, i.e. to 0.7×: inflight_hi =
// max(tx_in_flight, 0.7·target inflight) when a probe's loss rate exceeds
// 2%, bw_lo and inflight_lo to max(latest round, 0.7×) after a lossy
// round outside probing. The draft's BBR.Beta = 0.7 is the multiplier, the
// same cut.
//
// Inspect's "phase" uses Linux's uapi enum tcp_bbr_phase for every
// version: 1 STARTUP, 2 DRAIN, 3 PROBE_BW UP, 4 DOWN, 5 CRUISE, 6 REFILL,
// 7 PROBE_RTT (v1's 1.25 phase is UP, 0.75 DOWN, the 1.0 phases CRUISE).
// Rates in Inspect are bits/s (_bps), windows bytes, times ms.
//
// Audited against google/bbr v2alpha tcp_bbr2.c (issue 17): the gains,
// bbr_beta, bbr_loss_thresh, bbr_inflight_headroom, the probe wait
// (2 s + rand 1 s, or min(63, target inflight) rounds + rand 2), the
// PROBE_UP inflight_hi slope (cwnd/2^k packets per increment, reset while
// not cwnd-limited), the 1.25·BDP-after-min_rtt end of UP, the STARTUP
// exits (3 rounds < 25% growth of max_bw; 8 loss events in a recovery
// round above 2%) and the lower-bound cuts match; the loss round now
// extends at its first loss for v2 as for v3 (bbr2_skb_marked_lost). The
// real dataset's bbr2 runs came from kernel 5.13.12 hosts; their long-RTT
// throughput (≈ 1.5–2 MB in flight whatever the RTT, cwnd ~10 MB and
// snd_wnd ~8 MB not binding) fits a 2–4 MiB send buffer, not the
// algorithm: see the flow's sndbuf.
//
// Departures from the kernels, because the transport contract carries
// less than a socket: the earliest departure time is taken as now (no
// EDT backlog in packets_in_net_at_edt); the per-lost-skb hook
// (bbr_skb_marked_lost) is folded into the per-ACK sample (rs.Lost over
// rs.TxInFlight of the newest acked segment), so a too-lossy probe cuts
// inflight_hi to max(tx_in_flight, 0.7·target) of that segment, not to the
// prefix of the lost skb where the loss rate crossed 2%
// (bbr_inflight_hi_from_lost_skb), and v2's is_ack_delayed filter on the
// probe_rtt_min refresh is not applied; tp->is_cwnd_limited is
// approximated from OnSend (no room for a full segment in this or the
// previous round); the ECN mark rate of a sample is the current round's;
// after an RTO cwnd drops to cc.MinCWnd (2 segments; Linux uses 1) and the
// controller stays in loss recovery until an ACK reports InRecovery false;
// PROBE_RTT marks the transport app-limited after the ACK is processed
// (cc.AppLimitedMarker), not inside it; v2's ECN bw_hi cut,
// PLB and undo of spurious recoveries are not modelled.
package bbr
