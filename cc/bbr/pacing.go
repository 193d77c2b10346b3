package bbr

import (
	"math"
	"time"
)

// Pacing and window arithmetic shared by every BBR version.
const (
	// pacingMarginPercent: pace ~1% below the estimated bandwidth so the
	// bottleneck queue drains on average (Linux tcp_bbr.c
	// bbr_pacing_margin_percent, applied in bbr_rate_bytes_per_sec).
	pacingMarginPercent = 1
	// defaultRTT is the RTT assumed for the initial pacing rate before any
	// sample: Linux bbr_init_pacing_rate_from_rtt uses USEC_PER_MSEC.
	defaultRTT = time.Millisecond
	// cwndMinTargetPkts: "try to keep at least this many packets in flight"
	// (Linux bbr_cwnd_min_target = 4: two outstanding 2-packet delayed-ACK
	// sequences).
	cwndMinTargetPkts = 4
	// pacingShift: the TSO burst allowance is pacing_rate >> sk_pacing_shift
	// = ~1 ms of data (Linux sk_pacing_shift default 10, net/core/sock.c).
	pacingShift = 10
	// gsoMaxBytes is the largest TSO/GSO burst (Linux GSO_LEGACY_MAX_SIZE
	// 65536) minus 1 and MAX_TCP_HEADER (~320 B on x86-64, include/net/tcp.h).
	gsoMaxBytes = 65536 - 1 - 320
	// minTSORate: below 1.2 Mbit/s v1/v2 use 1-segment bursts, above 2
	// (Linux tcp_bbr.c bbr_min_tso_rate; v3 always uses
	// sysctl_tcp_min_tso_segs = 2).
	minTSORate = 1200000.0 / 8 // bytes/s
	// maxTSOSegs caps the v1 TSO goal (Linux bbr_tso_segs_goal: min(segs, 0x7F)).
	maxTSOSegs = 127
	// tsoRTTShift: v2/v3 add 64 KB >> (min_rtt_us >> 9) to the burst
	// allowance, halving it every 512 µs of min_rtt (Linux tcp_bbr.c v3
	// bbr_tso_rtt_shift = 9).
	tsoRTTShift = 9
	// probeUpExtraPkts: in the probing (gain 1.25) phase cwnd gets +2
	// packets so small BDPs still probe (Linux bbr_quantization_budget).
	probeUpExtraPkts = 2
)

// pacingRate is gain·bw·(1 − margin) in bytes/s (bbr_bw_to_pacing_rate).
func pacingRate(bw, gain float64) float64 {
	return bw * gain * (100 - pacingMarginPercent) / 100
}

// initialPacingRate is gain · initial cwnd / srtt, srtt defaulting to 1 ms
// when unknown (bbr_init_pacing_rate_from_rtt).
func initialPacingRate(cwnd int, srtt time.Duration, gain float64) float64 {
	if srtt <= 0 {
		srtt = defaultRTT
	}
	return pacingRate(float64(cwnd)/srtt.Seconds(), gain)
}

// bdp is ceil(bw · minRTT · gain) rounded up to whole segments, in bytes
// (bbr_bdp). Without an RTT sample it returns initCwnd (bbr_bdp's "be safe"
// branch).
func bdp(bw float64, minRTT time.Duration, gain float64, mss, initCwnd int) int {
	if minRTT <= 0 {
		return initCwnd
	}
	pkts := math.Ceil(bw * minRTT.Seconds() * gain / float64(mss))
	return int(pkts) * mss
}

// tsoSegsV1 is v1's TSO goal in segments (bbr_tso_segs_goal, 4.19+ kernels).
func tsoSegsV1(pacing float64, mss int) int {
	bytes := min(int(pacing)>>pacingShift, gsoMaxBytes)
	minSegs := 2
	if pacing < minTSORate {
		minSegs = 1
	}
	return min(max(bytes/mss, minSegs), maxTSOSegs)
}

// tsoSegsV2 is v2/v3's TSO goal in segments (bbr_tso_segs_generic): the
// rate-based allowance plus an RTT-based one that favours short paths.
// v2 keeps v1's 1-segment floor at low rates; v3 always allows 2.
func tsoSegsV2(pacing float64, minRTT time.Duration, mss int, v3 bool) int {
	bytes := int(pacing) >> pacingShift
	if r := minRTT.Microseconds() >> tsoRTTShift; r < 32 {
		bytes += 65536 >> r
	}
	bytes = min(bytes, gsoMaxBytes)
	minSegs := 2
	if !v3 && pacing < minTSORate {
		minSegs = 1
	}
	return max(bytes/mss, minSegs)
}

// quantizationV1 adds v1's TSO budget to a window: 3 TSO bursts, rounded
// up to an even number of segments, +2 segments in the probing phase.
func quantizationV1(cwnd, tsoSegs, mss int, probing bool) int {
	pkts := (cwnd+mss-1)/mss + 3*tsoSegs
	pkts = (pkts + 1) &^ 1
	if probing {
		pkts += probeUpExtraPkts
	}
	return pkts * mss
}

// quantizationV2 is v2/v3's flooring budget: at least 3 TSO bursts and
// cwndMinTargetPkts, +2 segments in PROBE_BW UP.
func quantizationV2(cwnd, tsoSegs, mss int, probing bool) int {
	cwnd = max(cwnd, 3*tsoSegs*mss, cwndMinTargetPkts*mss)
	if probing {
		cwnd += probeUpExtraPkts * mss
	}
	return cwnd
}
