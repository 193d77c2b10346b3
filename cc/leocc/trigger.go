package leocc

import (
	"time"

	"github.com/leolab/leolab/cc"
)

// periodic is a fixed reconfiguration schedule in run time: boundaries at
// offset + n·period (the simulation module's PERIOD and offset).
type periodic struct{ period, offset time.Duration }

var _ cc.Schedule = periodic{}

// Next returns the first boundary at or after now.
func (s periodic) Next(now time.Duration) time.Duration {
	if now <= s.offset {
		return s.offset
	}
	n := (now - s.offset + s.period - 1) / s.period
	return s.offset + n*s.period
}

// trigger decides when a reconfiguration happens, per flow. From a
// schedule it fires once per boundary, in the window before it (the
// module's relative_time ∈ [offset−100 ms, offset]). By detection it fires
// on an ACK that arrives more than gap after the previous one while data
// was in flight (monitor_ping's reply gap).
type trigger struct {
	sched  cc.Schedule
	window time.Duration
	gap    time.Duration

	lastBoundary time.Duration // boundary already triggered; valid if fired
	fired        bool
	lastAck      time.Duration // previous ACK; valid if acked
	acked        bool
	count        int // triggers so far
}

// onAck reports whether a reconfiguration is due at this ACK.
// priorInflight is the data in flight before the ACK.
func (t *trigger) onAck(now time.Duration, priorInflight int) bool {
	if t.sched != nil {
		return t.scheduled(now)
	}
	due := t.acked && priorInflight > 0 && now-t.lastAck > t.gap
	t.lastAck, t.acked = now, true
	if due {
		t.count++
	}
	return due
}

// scheduled fires once for each boundary, within window before it.
func (t *trigger) scheduled(now time.Duration) bool {
	b := t.sched.Next(now)
	if b < now || b-now > t.window || (t.fired && b == t.lastBoundary) {
		return false
	}
	t.lastBoundary, t.fired = b, true
	t.count++
	return true
}
