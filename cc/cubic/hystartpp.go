package cubic

import (
	"time"

	"github.com/leolab/leolab/cc"
)

// HyStart++ constants (RFC 9406 §4.3).
const (
	ppMinRTTThresh    = 4 * time.Millisecond  // MIN_RTT_THRESH
	ppMaxRTTThresh    = 16 * time.Millisecond // MAX_RTT_THRESH
	ppMinRTTDivisor   = 8                     // MIN_RTT_DIVISOR
	ppNRTTSample      = 8                     // N_RTT_SAMPLE
	ppCSSGrowthDiv    = 4                     // CSS_GROWTH_DIVISOR
	ppCSSRounds       = 5                     // CSS_ROUNDS
	ppUnpacedLSegment = 8                     // L for a non-paced sender (§4.2)
)

// hystartPP is HyStart++ (RFC 9406): on a round-over-round rise of the
// minimum RTT it enters Conservative Slow Start (CSS), growing at a quarter
// of slow start's rate; after CSS_ROUNDS rounds of CSS it ends slow start
// (ssthresh = cwnd); if the RTT falls back below the CSS baseline it resumes
// slow start. It runs for the initial slow start only (§4.3: later slow
// starts are bounded by the ssthresh they found). Rounds are delimited by
// delivered bytes as in hystart.
type hystartPP struct {
	done          bool // initial slow start is over
	css           bool
	cssBaseline   time.Duration // cssBaselineMinRtt
	cssRounds     int           // rounds completed in CSS
	lastRoundMin  time.Duration // lastRoundMinRTT
	currRoundMin  time.Duration // currentRoundMinRTT
	samples       int           // rttSampleCount
	windowEnd     int64         // delivered bytes that close this round
	roundsStarted bool
}

func (h *hystartPP) init() {
	*h = hystartPP{lastRoundMin: noRTT, currRoundMin: noRTT, cssBaseline: noRTT}
}

// active tells whether HyStart++ governs slow-start growth.
func (h *hystartPP) active() bool { return !h.done }

// finish ends HyStart++ for the rest of the connection (loss, RTO, or CSS
// completed).
func (h *hystartPP) finish() {
	h.done = true
	h.css = false
}

// increase is the slow-start growth for acked bytes: at most L·SMSS per ACK,
// divided by CSS_GROWTH_DIVISOR during CSS (§4.2).
func (h *hystartPP) increase(acked, mss int) int {
	n := min(acked, ppUnpacedLSegment*mss)
	if h.css {
		n /= ppCSSGrowthDiv
	}
	return n
}

// onAck processes one ACK in slow start and reports whether slow start
// must end now (CSS_ROUNDS rounds of CSS completed).
func (h *hystartPP) onAck(rs *cc.RateSample) bool {
	if h.done {
		return false
	}
	if !h.roundsStarted || rs.PriorDelivered >= h.windowEnd {
		h.roundsStarted = true
		h.windowEnd = rs.TotalDelivered
		h.lastRoundMin, h.currRoundMin, h.samples = h.currRoundMin, noRTT, 0
		if h.css {
			if h.cssRounds++; h.cssRounds >= ppCSSRounds {
				h.finish()
				return true
			}
		}
	}
	if rs.RTT <= 0 {
		return false
	}
	h.currRoundMin = min(h.currRoundMin, rs.RTT)
	h.samples++
	if h.samples < ppNRTTSample {
		return false
	}
	switch {
	case !h.css && h.currRoundMin != noRTT && h.lastRoundMin != noRTT:
		thresh := min(max(h.lastRoundMin/ppMinRTTDivisor, ppMinRTTThresh), ppMaxRTTThresh)
		if h.currRoundMin >= h.lastRoundMin+thresh {
			h.css, h.cssBaseline, h.cssRounds = true, h.currRoundMin, 0
		}
	case h.css && h.currRoundMin < h.cssBaseline:
		h.css, h.cssBaseline = false, noRTT
	}
	return false
}
