package leocc

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/cc"
)

// BBRv1 core of LeoCC (SpaceNetLab/LeoCC leocc/simulation/leocc.c, whose
// values are Linux net/ipv4/tcp_bbr.c's unless noted).
const (
	// highGain = 2/ln 2 ≈ 2.885, STARTUP's pacing and cwnd gain
	// (leocc_high_gain = 2885/1000 in 1/256 units).
	highGain = 2 / math.Ln2
	// drainGain = 1/highGain (leocc_drain_gain).
	drainGain = 1 / highGain
	// cwndGain in PROBE_BW (leocc_cwnd_gain = 2).
	cwndGain = 2.0
	// upGain and downGain are the first two phases of the eight-phase
	// PROBE_BW cycle, the other six are 1 (leocc_pacing_gain: 5/4, 3/4).
	upGain   = 1.25
	downGain = 0.75
	// upGainFluct replaces upGain while the RTT fluctuates (leocc_main:
	// leocc_pacing_gain[0] = LEOCC_UNIT * 21 / 20).
	upGainFluct = 1.05
	// cycleLen phases per PROBE_BW cycle (CYCLE_LEN); cycleRand: the first
	// phase is drawn among the 7 that are not DOWN (leocc_cycle_rand).
	cycleLen  = 8
	cycleRand = 7
	// bwRounds: the max-bw filter spans CYCLE_LEN+2 = 10 rounds
	// (leocc_bw_rtts).
	bwRounds = cycleLen + 2
	// minRTTWin: LeoCC keeps min_rtt for 20 s, twice BBRv1's 10 s
	// (leocc_min_rtt_win_sec = 20).
	minRTTWin = 20 * time.Second
	// probeRTTDur at the reduced window (leocc_probe_rtt_mode_ms = 200).
	probeRTTDur = 200 * time.Millisecond
	// probeRTTCwndGain: PROBE_RTT keeps 0.5·BDP in flight, as BBRv2/v3
	// rather than v1's 4 packets (leocc_probe_rtt_cwnd_gain = 1/2).
	probeRTTCwndGain = 0.5
	// cwndMinPkts: at least 4 packets in flight (leocc_cwnd_min_target).
	cwndMinPkts = 4
	// fullBwThresh, fullBwCount: STARTUP ends after 3 rounds without 25%
	// growth of the max bw (leocc_full_bw_thresh, leocc_full_bw_cnt).
	fullBwThresh = 1.25
	fullBwCount  = 3
	// initCwndPkts: STARTUP grows until 10 packets were delivered
	// (TCP_INIT_CWND, RFC 6928).
	initCwndPkts = 10
	// pacingMargin: pace 1% below the model (leocc_pacing_margin_percent).
	pacingMargin = 0.01
	// defaultRTT for the initial pacing rate before any sample
	// (leocc_init_pacing_rate_from_rtt: USEC_PER_MSEC).
	defaultRTT = time.Millisecond
)

// Pacing-burst (TSO) budget, Linux tcp_bbr.c v1 semantics as in
// leocc_tso_segs_goal and leocc_quantization_budget.
const (
	// pacingShift: a burst is pacing_rate >> 10, ~1 ms of data
	// (sk_pacing_shift default 10, net/core/sock.c).
	pacingShift = 10
	// gsoMaxBytes: GSO_LEGACY_MAX_SIZE (65536) − 1 − MAX_TCP_HEADER (~320).
	gsoMaxBytes = 65536 - 1 - 320
	// minTSORate: below 1.2 Mbit/s bursts are 1 segment, else ≥ 2
	// (leocc_min_tso_rate).
	minTSORate = 1200000.0 / 8
	// maxTSOSegs caps the goal at 0x7F segments.
	maxTSOSegs = 127
	// probeExtraPkts: +2 packets of cwnd in the UP phase.
	probeExtraPkts = 2
)

// LeoCC's reconfiguration model (leocc/simulation/leocc.c module
// parameters and statics; leocc/live_network/monitor_ping.c).
const (
	// kalmanQ and kalmanR are the process and measurement noise of both
	// Kalman filters (var_Q, var_R, var_Q_rtt, var_R_rtt = 4); kalmanP0 the
	// initial variance (p_post_bw = p_post_rtt = 25 in leocc_init).
	kalmanQ  = 4
	kalmanR  = 4
	kalmanP0 = 25
	// defPeriod and defOffset: reconfigurations every 15 s, the first 12 s
	// after the start (PERIOD = 15000, offset = 12000 ms; Starlink's
	// :12/:27/:42/:57, seed 001).
	defPeriod = 15 * time.Second
	defOffset = 12 * time.Second
	// defWindow: the trigger fires in the 100 ms before a boundary
	// (leocc_main: magic_offet = 100).
	defWindow = 100 * time.Millisecond
	// defDetectGap: a reply gap above 45 ms is a reconfiguration
	// (monitor_ping.c THRESHOLD = 45 ms, below the 45/68 ms outages of
	// seed 001 plus one ping interval).
	defDetectGap = 45 * time.Millisecond
	// defDeltaThresh: in PROBE_RTT, an RTT sample 45 ms below the Kalman
	// RTT marks the post-reconfiguration bandwidth (delta_thresh = 45000 µs).
	defDeltaThresh = 45 * time.Millisecond
	// defMinRTTFluct: the Kalman bandwidth and the 1.05 UP gain apply once
	// the Kalman RTT exceeds min_rtt by 10 ms (min_rtt_fluctuation = 10000
	// µs in the simulation module; its README suggests 5–20 ms).
	defMinRTTFluct = 10 * time.Millisecond
)

// Trigger sources for Params["trigger"].
const (
	TriggerAuto     = 0 // the schedule when the path has one, else detection
	TriggerSchedule = 1 // cc.Config.Schedule, or the period_s/offset_s schedule
	TriggerDetect   = 2 // ACK gap above detect_gap_ms
)

// params are every knob of a LeoCC; tests set them directly.
type params struct {
	trigger             int
	sched               cc.Schedule // nil in detection mode
	window, detectGap   time.Duration
	deltaThresh         time.Duration
	deltaRTT, minRTTFlu time.Duration
}

// defaultParams lists the knobs and defaults for the registry.
func defaultParams() map[string]float64 {
	return map[string]float64{
		"trigger": TriggerAuto, "period_s": defPeriod.Seconds(), "offset_s": defOffset.Seconds(),
		"window_ms": ms(defWindow), "detect_gap_ms": ms(defDetectGap),
		"delta_thresh_ms": ms(defDeltaThresh), "delta_rtt_ms": 0,
		"min_rtt_fluctuation_ms": ms(defMinRTTFluct),
	}
}

// parseParams validates cfg.Params and picks the trigger source.
func parseParams(cfg cc.Config) (params, error) {
	p := params{
		trigger:     int(cfg.Param("trigger", TriggerAuto)),
		window:      msDur(cfg.Param("window_ms", ms(defWindow))),
		detectGap:   msDur(cfg.Param("detect_gap_ms", ms(defDetectGap))),
		deltaThresh: msDur(cfg.Param("delta_thresh_ms", ms(defDeltaThresh))),
		deltaRTT:    msDur(cfg.Param("delta_rtt_ms", 0)),
		minRTTFlu:   msDur(cfg.Param("min_rtt_fluctuation_ms", ms(defMinRTTFluct))),
	}
	if float64(p.trigger) != cfg.Param("trigger", 0) || p.trigger < TriggerAuto || p.trigger > TriggerDetect {
		return p, fmt.Errorf("leocc: param trigger = %v: allowed 0 (auto), 1 (schedule), 2 (detection)", cfg.Param("trigger", 0))
	}
	if p.window <= 0 || p.detectGap <= 0 || p.deltaThresh <= 0 || p.deltaRTT < 0 || p.minRTTFlu < 0 {
		return p, fmt.Errorf("leocc: window_ms and detect_gap_ms and delta_thresh_ms must be > 0, delta_rtt_ms and min_rtt_fluctuation_ms ≥ 0")
	}
	sched := cfg.Schedule
	if hasKey(cfg.Params, "offset_s") || hasKey(cfg.Params, "period_s") {
		ps := periodic{period: secDur(cfg.Param("period_s", defPeriod.Seconds())), offset: secDur(cfg.Param("offset_s", defOffset.Seconds()))}
		if ps.period <= 0 || ps.offset < 0 {
			return p, fmt.Errorf("leocc: period_s must be > 0 and offset_s ≥ 0, got %v and %v", ps.period, ps.offset)
		}
		sched = ps
	}
	switch {
	case p.trigger == TriggerSchedule && sched == nil:
		return p, fmt.Errorf("leocc: trigger = 1 (schedule) but the path has no reconfiguration schedule and offset_s is not set")
	case p.trigger != TriggerDetect:
		p.sched = sched
	}
	if p.sched == nil {
		p.trigger = TriggerDetect
	} else {
		p.trigger = TriggerSchedule
	}
	return p, nil
}

func hasKey(m map[string]float64, k string) bool { _, ok := m[k]; return ok }

// ms is a duration in milliseconds (Params and Inspect).
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func msDur(v float64) time.Duration  { return time.Duration(v * float64(time.Millisecond)) }
func secDur(v float64) time.Duration { return time.Duration(v * float64(time.Second)) }
