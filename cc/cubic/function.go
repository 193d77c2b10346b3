package cubic

import (
	"math"
	"time"
)

// function is the state of the cubic window function (Linux struct bictcp,
// RFC 9438 §4.2–4.3). Windows are in segments (float) except the
// Reno-friendly estimate, which is in bytes like cwnd.
type function struct {
	cnt        float64       // ACKed segments per one-segment increase
	wMax       float64       // last_max_cwnd (W_max), segments; 0 = unknown
	lastCWnd   int           // cwnd (bytes) when cnt was last computed
	lastTime   time.Duration // when cnt was last computed
	origin     float64       // bic_origin_point, segments
	k          float64       // K, seconds from the epoch start to the origin
	epochSet   bool          // an epoch is running
	epochStart time.Duration // first ACK in avoidance after a reduction
	ackCnt     int           // bytes ACKed since the Reno estimate last grew
	renoCWnd   int           // tcp_cwnd: the Reno-friendly window, bytes
	// kShrink is the fraction of K removed at an epoch start (0 for
	// CUBIC): the owner's knob, kept across resets (see Cubic.SetKScale).
	kShrink float64
}

// update is Linux's bictcp_update: compute cnt for a window of cwnd bytes
// at now, given acked bytes on this ACK and the minimum RTT.
//
// RFC 9438 eq. 1: W_cubic(t) = C·(t−K)³ + W_max, K = ∛(W_max·(1−β)/C)
// (here with cwnd at the epoch start in place of β·W_max, as Linux), and
// the target is W_cubic(t + min_rtt); cnt = cwnd/(target − cwnd).
func (f *function) update(now time.Duration, cwnd, acked, mss int, delayMin time.Duration, friendly bool) {
	f.ackCnt += acked
	if f.lastCWnd == cwnd && now-f.lastTime <= recalcInterval {
		return
	}
	f.lastCWnd, f.lastTime = cwnd, now
	w := float64(cwnd) / float64(mss)
	if !f.epochSet {
		f.epochSet, f.epochStart = true, now
		f.ackCnt = acked
		f.renoCWnd = cwnd
		if f.wMax <= w {
			f.k, f.origin = 0, w
		} else {
			f.k, f.origin = math.Cbrt((f.wMax-w)/cubicC), f.wMax
			f.k -= f.k * f.kShrink
		}
	}
	t := (now - f.epochStart + delayMin).Seconds()
	target := f.origin + cubicC*math.Pow(t-f.k, 3)
	if target > w {
		f.cnt = w / (target - w)
	} else {
		f.cnt = smallIncCnt * w
	}
	if f.wMax == 0 && f.cnt > maxCntNoWMax {
		f.cnt = maxCntNoWMax
	}
	if friendly {
		f.friendly(cwnd, mss)
	}
	f.cnt = max(f.cnt, minCnt)
}

// friendly grows the Reno-friendly estimate by one segment per
// cwnd·renoAckScale/8 ACKed bytes and, when it is ahead of cwnd, makes cnt
// fast enough to catch up within a round trip (RFC 9438 §4.3).
func (f *function) friendly(cwnd, mss int) {
	delta := max(cwnd*renoAckScale/8, 1)
	if f.ackCnt > delta {
		n := (f.ackCnt - 1) / delta
		f.ackCnt -= n * delta
		f.renoCWnd += n * mss
	}
	if f.renoCWnd > cwnd {
		maxCnt := float64(cwnd) / float64(f.renoCWnd-cwnd)
		f.cnt = min(f.cnt, maxCnt)
	}
}
