package learnedtest

import (
	"time"

	"github.com/leolab/leolab/cc/monitor"
)

// Recorder is a decider answering a constant action A and recording the
// periods it is asked about: how many, when, how long.
type Recorder struct {
	A     float32
	Calls int
	// First is the time of the first decision; MaxGap the largest time
	// between two.
	First, MaxGap time.Duration
	// Start is the first period's start, End the last's end; Broken
	// counts periods shorter than Period or not starting where the
	// previous one ended (cc/monitor closes a period at the first ACK
	// once Period has elapsed and opens the next there, so neither
	// happens); MaxLen is the longest period.
	Start, End time.Duration
	Period     time.Duration
	Broken     int
	MaxLen     time.Duration
	// Empty counts periods without an ACK (none: the ACK that closes a
	// period is accounted in it).
	Empty int
	prev  time.Duration
}

// Decide records iv and answers A.
func (r *Recorder) Decide(now time.Duration, iv *monitor.Interval, _ []float32, _ float32) float32 {
	if r.Calls == 0 {
		r.First, r.Start = now, iv.Start
	} else {
		r.MaxGap = max(r.MaxGap, now-r.prev)
		if iv.Start != r.End {
			r.Broken++
		}
	}
	if iv.Duration() < r.Period {
		r.Broken++
	}
	if iv.Acks == 0 {
		r.Empty++
	}
	r.MaxLen = max(r.MaxLen, iv.Duration())
	r.prev, r.End = now, iv.End
	r.Calls++
	return r.A
}
