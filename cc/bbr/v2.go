package bbr

import (
	"math"
	"time"
)

// BBRv2 constants: google/bbr branch v2alpha, net/ipv4/tcp_bbr2.c.
const (
	// v2HighGain: STARTUP pacing and cwnd gain 2/ln 2 (bbr_high_gain,
	// bbr_startup_cwnd_gain); DRAIN paces at its inverse (bbr_drain_gain).
	v2HighGain = 2 / math.Ln2
	// v2DownGain: PROBE_BW DOWN paces at 0.75 (bbr_pacing_gain[1]).
	v2DownGain = 0.75
	// v2FullLossCnt: STARTUP ends after ≥ 8 loss-marking events in a
	// recovery round with loss above loss_thresh (bbr_full_loss_cnt).
	v2FullLossCnt = 8
)

// variantV2 is BBRv2 alpha's parameter set.
func variantV2() variant {
	v := commonVariant()
	v.name = "bbr2"
	v.v3 = false
	v.startupPacing, v.startupCwnd, v.drain = v2HighGain, v2HighGain, 1/v2HighGain
	v.down = v2DownGain
	v.upCwndAdd = 0
	v.fullLossCnt = v2FullLossCnt
	return v
}

// commonVariant holds the constants v2alpha and v3 share (tcp_bbr2.c and
// v3 tcp_bbr.c define the same values).
func commonVariant() variant {
	return variant{
		// bbr_pacing_gain[BBR_BW_PROBE_UP] = 5/4; bbr_cwnd_gain = 2.
		up: 1.25, cwndGain: 2,
		// bbr_beta = 30/100: inflight_hi, inflight_lo and bw_lo are cut
		// by 30%, to 0.7× (draft-ietf-ccwg-bbr writes BBR.Beta = 0.7 as
		// the multiplier; same effect).
		beta: 0.3,
		// bbr_loss_thresh = 2/100; bbr_inflight_headroom = 15/100.
		lossThresh: 0.02, headroom: 0.15,
		// bbr_probe_rtt_win_ms = 5000; bbr_min_rtt_win_sec = 10;
		// bbr_probe_rtt_mode_ms = 200; bbr_probe_rtt_cwnd_gain = 1/2.
		probeRTTWin: 5 * time.Second, minRTTWin: 10 * time.Second,
		probeRTTDur: probeRTTDuration, probeRTTCwndGain: 0.5,
		// bbr_bw_probe_base_us = 2 s, bbr_bw_probe_rand_us = 1 s,
		// bbr_bw_probe_max_rounds = 63, bbr_bw_probe_rand_rounds = 2.
		probeWaitBase: 2 * time.Second, probeWaitRand: time.Second,
		probeMaxRounds: 63, probeRandRounds: 2,
		// bbr_ecn_thresh = 1/2, bbr_ecn_factor = 1/3, bbr_ecn_alpha_gain =
		// 1/16, bbr_ecn_alpha_init = 1, bbr_ecn_max_rtt_us = 5000,
		// bbr_full_ecn_cnt = 2. ECN is off unless the scenario enables it
		// (v2alpha bbr_ecn_enable = false; v3 needs TCP_ECN_LOW).
		ecnThresh: 0.5, ecnFactor: 1.0 / 3, ecnAlphaGain: 1.0 / 16,
		ecnMaxRTT: 5 * time.Millisecond, fullECNCnt: 2,
		// bbr_extra_acked_gain = 1.0 (BBR_UNIT).
		extraAckedGain: 1,
		// bbr_bw_probe_pif_gain = 5/4: v2 ends UP once inflight ≥ 1.25·BDP.
		probePifGain: 1.25,
	}
}
