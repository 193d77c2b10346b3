package schedule

import (
	"sort"
	"time"
)

// Span is a time interval [From, To).
type Span struct{ From, To time.Duration }

// Outages is a sorted set of disjoint spans during which a link is down.
// Like Profile it is a value with its own cursor per stage.
type Outages struct {
	spans []Span
	cur   int
}

// NewOutages returns the outages of spans, which must be sorted, disjoint
// and non-empty each (the path readers build them so).
func NewOutages(spans []Span) Outages { return Outages{spans: spans} }

// Spans returns the outages (read-only).
func (o *Outages) Spans() []Span { return o.spans }

// Down reports whether t falls in an outage.
func (o *Outages) Down(t time.Duration) bool {
	if len(o.spans) == 0 {
		return false
	}
	if o.cur > 0 && t < o.spans[o.cur-1].To { // time went back
		o.cur = sort.Search(len(o.spans), func(i int) bool { return o.spans[i].To > t })
	}
	for o.cur < len(o.spans) && o.spans[o.cur].To <= t {
		o.cur++
	}
	return o.cur < len(o.spans) && o.spans[o.cur].From <= t
}
