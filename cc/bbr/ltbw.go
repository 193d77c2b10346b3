package bbr

import (
	"math"
	"time"
)

// Long-term ("LT") bandwidth sampling: BBRv1's token-bucket policer
// detector (Linux tcp_bbr.c bbr_lt_bw_sampling, after Flach et al., "An
// Internet-Wide Analysis of Traffic Policing", SIGCOMM 2016).
const (
	// ltIntvlMinRounds: a sampling interval spans at least 4 round trips
	// (bbr_lt_intvl_min_rtts); an interval longer than 4× that is reset.
	ltIntvlMinRounds = 4
	// ltLossThresh: an interval is "lossy" when lost/delivered ≥ 50/256
	// ≈ 20% (bbr_lt_loss_thresh).
	ltLossThresh = 50.0 / 256
	// ltBwRatio: two intervals' rates are consistent when they differ by
	// at most 1/8 (bbr_lt_bw_ratio) ...
	ltBwRatio = 1.0 / 8
	// ltBwDiff: ... or by at most 4 kbit/s (bbr_lt_bw_diff = 4000/8 B/s).
	ltBwDiff = 4000.0 / 8
	// ltBwMaxRounds: a detected policer rate is used for 48 round trips
	// (bbr_lt_bw_max_rtts), then gain cycling restarts.
	ltBwMaxRounds = 48
)

// ltSampler is the policer detector's state.
type ltSampler struct {
	sampling  bool    // taking samples now (started by a loss)
	useBw     bool    // bw is the policed rate in use
	bw        float64 // long-term rate estimate, bytes/s
	rounds    int     // round trips in this interval (or in use)
	stamp     time.Duration
	delivered int64
	lost      int64
}

// ltEvent tells the caller what the sample changed.
type ltEvent uint8

const (
	ltNone    ltEvent = iota
	ltPoliced         // a policer was detected: pace at bw with gain 1
	ltExpired         // the policed rate has been used long enough
)

// resetInterval starts a new sampling interval at the given totals.
func (l *ltSampler) resetInterval(now time.Duration, delivered, lost int64) {
	l.stamp, l.delivered, l.lost, l.rounds = now, delivered, lost, 0
}

// reset forgets the long-term estimate entirely.
func (l *ltSampler) reset(now time.Duration, delivered, lost int64) {
	l.bw, l.useBw, l.sampling = 0, false, false
	l.resetInterval(now, delivered, lost)
}

// sample feeds one ACK (or an RTO, as a lossy end of round). probeBW tells
// whether the flow is in PROBE_BW, where the policed rate's use expires.
func (l *ltSampler) sample(now time.Duration, losses, appLimited, roundStart, probeBW bool, delivered, lost int64) ltEvent {
	if l.useBw {
		if probeBW && roundStart {
			l.rounds++
			if l.rounds >= ltBwMaxRounds {
				l.reset(now, delivered, lost)
				return ltExpired
			}
		}
		return ltNone
	}
	// Wait for the first loss, so the policer has exhausted its tokens.
	if !l.sampling {
		if !losses {
			return ltNone
		}
		l.resetInterval(now, delivered, lost)
		l.sampling = true
	}
	if appLimited { // would underestimate the rate
		l.reset(now, delivered, lost)
		return ltNone
	}
	if roundStart {
		l.rounds++
	}
	if l.rounds < ltIntvlMinRounds {
		return ltNone
	}
	if l.rounds > 4*ltIntvlMinRounds {
		l.reset(now, delivered, lost)
		return ltNone
	}
	// End the interval on a loss: the tokens are surely exhausted then.
	if !losses {
		return ltNone
	}
	dLost, dDelivered := lost-l.lost, delivered-l.delivered
	if dDelivered <= 0 || float64(dLost) < ltLossThresh*float64(dDelivered) {
		return ltNone
	}
	t := now - l.stamp
	if t < time.Millisecond { // Linux measures the interval in ms
		return ltNone
	}
	return l.intervalDone(now, float64(dDelivered)/t.Seconds(), delivered, lost)
}

// intervalDone compares the finished interval's rate with the previous
// one; two consistent lossy intervals mean a policer.
func (l *ltSampler) intervalDone(now time.Duration, bw float64, delivered, lost int64) ltEvent {
	if l.bw > 0 {
		diff := math.Abs(bw - l.bw)
		if diff <= ltBwRatio*l.bw || diff <= ltBwDiff {
			l.bw = (bw + l.bw) / 2
			l.useBw = true
			l.rounds = 0
			return ltPoliced
		}
	}
	l.bw = bw
	l.resetInterval(now, delivered, lost)
	return ltNone
}
