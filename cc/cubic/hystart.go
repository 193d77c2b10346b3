package cubic

import (
	"math"
	"time"

	"github.com/leolab/leolab/cc"
)

// Linux HyStart constants (net/ipv4/tcp_cubic.c, current mainline).
const (
	// Detectors selectable by Params["hystart_detect"] (HYSTART_ACK_TRAIN,
	// HYSTART_DELAY).
	hystartACKTrain = 0x1
	hystartDelay    = 0x2
	// hystartLowWindow: HyStart runs only from 16 segments on
	// (hystart_low_window).
	hystartLowWindow = 16
	// hystartACKDelta: ACKs closer than 2 ms belong to one train
	// (hystart_ack_delta_us).
	hystartACKDelta = 2 * time.Millisecond
	// hystartMinSamples: RTT samples per round before the delay test
	// (HYSTART_MIN_SAMPLES).
	hystartMinSamples = 8
	// The delay threshold is clamp(delay_min/8, 4 ms, 16 ms)
	// (HYSTART_DELAY_MIN, HYSTART_DELAY_MAX, HYSTART_DELAY_THRESH).
	hystartDelayMin     = 4 * time.Millisecond
	hystartDelayMax     = 16 * time.Millisecond
	hystartDelayDivisor = 8
	// hystart_ack_delay: a TSO/GRO cushion of 4·gso_max_size at the pacing
	// rate, at most 1 ms; Linux's pacing rate in slow start is
	// 2·cwnd/srtt (sysctl tcp_pacing_ss_ratio = 200%) even when unpaced.
	gsoMaxSize    = 65536 // bytes, GSO_LEGACY_MAX_SIZE
	ackDelayGSOs  = 4
	ackDelayMax   = time.Millisecond
	ssPacingRatio = 2.0
	// noRTT is a round's minimum RTT before any sample (Linux ~0U).
	noRTT = time.Duration(math.MaxInt64)
)

// hystart is Linux's hybrid slow start state: it ends slow start (sets
// ssthresh = cwnd) when a round's ACK train spans more than half the minimum
// RTT or when the round's minimum RTT exceeds delay_min by the threshold.
// Rounds are delimited by delivered bytes instead of sequence numbers: a
// round ends when an ACK acknowledges data sent after the round began
// (rs.PriorDelivered ≥ the delivered count at its start).
type hystart struct {
	found      bool
	roundStart time.Duration // first ACK of the round
	lastAck    time.Duration // last ACK of the current train
	nextRound  int64         // delivered bytes that close this round (end_seq)
	currRTT    time.Duration // minimum RTT sample of this round
	samples    int           // RTT samples in this round, up to hystartMinSamples
}

// reset starts a round at now that ends once data sent after delivered
// bytes is acknowledged (bictcp_hystart_reset).
func (h *hystart) reset(now time.Duration, delivered int64) {
	h.roundStart, h.lastAck = now, now
	h.nextRound = delivered
	h.currRTT = noRTT
	h.samples = 0
}

// update is Linux's hystart_update for one ACK with RTT sample rs.RTT; it
// reports whether slow start must end.
func (h *hystart) update(now time.Duration, rs *cc.RateSample, delayMin time.Duration, cwnd, detect int) bool {
	if rs.PriorDelivered >= h.nextRound {
		h.reset(now, rs.TotalDelivered)
	}
	if detect&hystartACKTrain != 0 && now-h.lastAck <= hystartACKDelta {
		h.lastAck = now
		// Unpaced senders (sk_pacing_status NONE) halve the threshold.
		threshold := (delayMin + ackDelay(cwnd, rs.SRTT)) / 2
		if now-h.roundStart > threshold {
			h.found = true
		}
	}
	if detect&hystartDelay != 0 {
		h.currRTT = min(h.currRTT, rs.RTT)
		if h.samples < hystartMinSamples {
			h.samples++
		} else if h.currRTT > delayMin+delayThreshold(delayMin) {
			h.found = true
		}
	}
	return h.found
}

// delayThreshold is HYSTART_DELAY_THRESH(delay_min/8).
func delayThreshold(delayMin time.Duration) time.Duration {
	return min(max(delayMin/hystartDelayDivisor, hystartDelayMin), hystartDelayMax)
}

// ackDelay is Linux's hystart_ack_delay for a window of cwnd bytes and
// smoothed RTT srtt: 0 when no rate is known.
func ackDelay(cwnd int, srtt time.Duration) time.Duration {
	if srtt <= 0 || cwnd <= 0 {
		return 0
	}
	rate := ssPacingRatio * float64(cwnd) / srtt.Seconds() // bytes/s
	d := time.Duration(ackDelayGSOs * gsoMaxSize / rate * float64(time.Second))
	return min(d, ackDelayMax)
}
