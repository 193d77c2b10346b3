package bbr

// BBRv3 constants: google/bbr branch v3, net/ipv4/tcp_bbr.c
// (BBR_VERSION 3), cross-checked with draft-ietf-ccwg-bbr.
const (
	// v3StartupPacing = 4·ln 2 ≈ 2.77 (bbr_startup_pacing_gain =
	// 277/100; draft BBRStartupPacingGain).
	v3StartupPacing = 2.77
	// v3StartupCwnd = 2 (bbr_startup_cwnd_gain; draft BBRStartupCwndGain).
	v3StartupCwnd = 2.0
	// v3Drain = 1/2.885 ≈ 0.35 (bbr_drain_gain = 1000/2885; the draft's
	// BBRDrainPacingGain is 0.35).
	v3Drain = 1000.0 / 2885
	// v3DownGain: PROBE_BW DOWN pacing gain. Linux v3 uses 0.91
	// (bbr_pacing_gain[BBR_BW_PROBE_DOWN] = 91/100); draft-ietf-ccwg-bbr
	// uses 0.90. We follow Linux (the real dataset's senders run it);
	// the "down_gain" parameter selects the draft's value.
	v3DownGain = 0.91
	// v3UpCwndAdd: cwnd gain +0.25 in PROBE_BW UP (bbr_bw_probe_cwnd_gain
	// = 1 in units of 1/4).
	v3UpCwndAdd = 0.25
	// v3FullLossCnt: STARTUP ends after ≥ 6 loss-marking events in a
	// recovery round with loss above loss_thresh (bbr_full_loss_cnt).
	v3FullLossCnt = 6
)

// variantV3 is BBRv3's parameter set.
func variantV3() variant {
	v := commonVariant()
	v.name = "bbr3"
	v.v3 = true
	v.startupPacing, v.startupCwnd, v.drain = v3StartupPacing, v3StartupCwnd, v3Drain
	v.down = v3DownGain
	v.upCwndAdd = v3UpCwndAdd
	v.fullLossCnt = v3FullLossCnt
	return v
}
