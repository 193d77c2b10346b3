package sim

import (
	"math"
	"time"
)

// Never is a time that never comes: NextEvent-style methods return it when
// nothing is pending.
const Never = time.Duration(math.MaxInt64)

// Handler receives events. arg is the value given to Schedule, so one object
// can own several kinds of timer without allocating a closure per event.
type Handler interface {
	Fire(now time.Duration, arg int)
}

// HandlerFunc adapts a function to Handler (convenient off the hot path).
type HandlerFunc func(now time.Duration, arg int)

// Fire calls f.
func (f HandlerFunc) Fire(now time.Duration, arg int) { f(now, arg) }

// Timer identifies a scheduled event so it can be cancelled. The zero Timer
// is never scheduled.
type Timer struct {
	id uint64
}

type event struct {
	at  time.Duration
	seq uint64 // scheduling order: breaks ties deterministically
	h   Handler
	arg int
	id  uint64
}

// Loop is the event loop. It is single-threaded and not safe for concurrent use.
type Loop struct {
	now     time.Duration
	heap    []event
	seq     uint64
	pending map[uint64]struct{} // ids of scheduled, not yet fired or cancelled events
	fired   uint64
}

// NewLoop returns an empty loop at time 0.
func NewLoop() *Loop {
	return &Loop{pending: make(map[uint64]struct{}, 64)}
}

// Now returns the current virtual time.
func (l *Loop) Now() time.Duration { return l.now }

// Fired returns how many events have been delivered.
func (l *Loop) Fired() uint64 { return l.fired }

// Schedule arranges for h.Fire(at, arg) to be called. A time in the past is
// treated as now: time never goes backwards.
func (l *Loop) Schedule(at time.Duration, h Handler, arg int) Timer {
	if at < l.now {
		at = l.now
	}
	l.seq++
	id := l.seq
	l.pending[id] = struct{}{}
	l.push(event{at: at, seq: id, h: h, arg: arg, id: id})
	return Timer{id: id}
}

// Cancel prevents a scheduled event from firing. Cancelling a fired,
// cancelled or zero Timer does nothing. Cancelled events stay in the heap and
// are skipped when they reach the top (lazy deletion).
func (l *Loop) Cancel(t Timer) {
	delete(l.pending, t.id)
}

// Pending reports whether t is scheduled and has not fired.
func (l *Loop) Pending(t Timer) bool {
	_, ok := l.pending[t.id]
	return ok
}

// RunUntil delivers events in time order until the next one is after end or
// none remain; the clock is then set to end.
func (l *Loop) RunUntil(end time.Duration) {
	for len(l.heap) > 0 {
		if l.heap[0].at > end {
			break
		}
		ev := l.pop()
		if _, ok := l.pending[ev.id]; !ok {
			continue
		}
		delete(l.pending, ev.id)
		l.now = ev.at
		l.fired++
		ev.h.Fire(ev.at, ev.arg)
	}
	if end > l.now {
		l.now = end
	}
}

// 4-ary heap: shallower than binary, fewer cache misses per sift.

func less(a, b *event) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

func (l *Loop) push(e event) {
	l.heap = append(l.heap, e)
	i := len(l.heap) - 1
	h := l.heap
	for i > 0 {
		p := (i - 1) / 4
		if !less(&h[i], &h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (l *Loop) pop() event {
	h := l.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h[last] = event{}
	h = h[:last]
	l.heap = h
	i := 0
	for {
		c := 4*i + 1
		if c >= len(h) {
			break
		}
		m := c
		for k := c + 1; k < c+4 && k < len(h); k++ {
			if less(&h[k], &h[m]) {
				m = k
			}
		}
		if !less(&h[m], &h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return top
}
