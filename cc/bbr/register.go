package bbr

import "github.com/leolab/leolab/cc"

func init() {
	cc.Register(cc.Info{
		Name:        "bbr1",
		Description: "BBRv1: model-based (max bw × min RTT), gain-cycling PROBE_BW, policer detection",
		Source:      "Linux net/ipv4/tcp_bbr.c (mainline BBRv1); Cardwell et al., ACM Queue 14(5), 2016",
		Params: map[string]float64{
			"high_gain": v1HighGain, "drain_gain": 1 / v1HighGain, "cwnd_gain": v1CwndGain,
			"bw_rounds": v1BwRounds, "min_rtt_win_s": v1MinRTTWin.Seconds(),
			"probe_rtt_s": probeRTTDuration.Seconds(), "lt_bw": 1, "extra_acked_gain": 1,
		},
		New: newV1,
	})
}

func init() {
	v2, v3 := variantV2(), variantV3()
	cc.Register(cc.Info{
		Name:        "bbr2",
		Description: "BBRv2 alpha: BBR with loss/ECN bounds (inflight_hi/lo, bw_lo), 2% loss threshold",
		Source:      "google/bbr v2alpha net/ipv4/tcp_bbr2.c",
		Params:      v2.params(),
		New:         func(cfg cc.Config) (cc.Controller, error) { return newVariant(v2, cfg) },
	})
	for _, name := range []string{"bbr3", "bbr"} {
		desc := "BBRv3: BBRv2 refined (startup 2.77/2, DOWN 0.91, cwnd +0.25 in UP, plateau-ended probes)"
		if name == "bbr" {
			desc = "alias of bbr3 (BBRv3, what recent Linux senders run as \"bbr\")"
		}
		cc.Register(cc.Info{
			Name:        name,
			Description: desc,
			Source:      "google/bbr v3 net/ipv4/tcp_bbr.c; draft-ietf-ccwg-bbr",
			Params:      v3.params(),
			New:         func(cfg cc.Config) (cc.Controller, error) { return newVariant(v3, cfg) },
		})
	}
}
