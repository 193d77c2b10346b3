package schedule

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Change is one entry of a schedule for one quantity: from At on, the
// quantity is Value; with Ramp > 0 it moves linearly from whatever it was at
// At to Value over [At, At+Ramp] and stays there.
type Change struct {
	At    time.Duration
	Ramp  time.Duration
	Value float64
}

// seg is one piece of a profile: on [start, next seg's start) the value is
// v0 + slope·(t − start), slope per second.
type seg struct {
	start time.Duration
	v0    float64
	slope float64
}

// Profile is a quantity over run time: piecewise linear, with steps. It is
// a value type; each stage keeps its own copy, whose cursor follows that
// stage's (non-decreasing) time so that Value is O(1) per packet. The
// segments are shared read-only between copies.
type Profile struct {
	segs []seg
	cur  int
}

// Constant is the profile of a value that never changes.
func Constant(v float64) Profile { return Profile{segs: []seg{{start: math.MinInt64, v0: v}}} }

// NewProfile returns the profile that starts at initial and follows
// changes, which must be in time order with no change before the previous
// one's ramp has ended. Times may not be negative.
func NewProfile(initial float64, changes []Change) (Profile, error) {
	p := Profile{segs: make([]seg, 1, 1+2*len(changes))}
	p.segs[0] = seg{start: math.MinInt64, v0: initial}
	end := time.Duration(0) // when the previous change is complete
	for i, c := range changes {
		if c.At < 0 || c.Ramp < 0 {
			return Profile{}, fmt.Errorf("change %d: at %v and ramp %v must be >= 0", i, c.At, c.Ramp)
		}
		if i > 0 && c.At < end {
			return Profile{}, fmt.Errorf("change %d at %v: before the previous change ends at %v (changes must be in time order, a ramp finished before the next change)", i, c.At, end)
		}
		if math.IsNaN(c.Value) || math.IsInf(c.Value, 0) {
			return Profile{}, fmt.Errorf("change %d: value %v is not finite", i, c.Value)
		}
		from := p.at(c.At)
		if c.Ramp > 0 {
			p.push(seg{start: c.At, v0: from, slope: (c.Value - from) / c.Ramp.Seconds()})
		}
		p.push(seg{start: c.At + c.Ramp, v0: c.Value})
		end = c.At + c.Ramp
	}
	return p, nil
}

// push appends s, replacing a segment that starts at the same time (two
// changes at one instant: the later wins).
func (p *Profile) push(s seg) {
	if last := &p.segs[len(p.segs)-1]; last.start == s.start {
		*last = s
		return
	}
	p.segs = append(p.segs, s)
}

// at evaluates without moving the cursor (construction only).
func (p *Profile) at(t time.Duration) float64 {
	i := sort.Search(len(p.segs), func(i int) bool { return p.segs[i].start > t }) - 1
	return p.segs[i].value(t)
}

func (s seg) value(t time.Duration) float64 {
	if s.slope == 0 {
		return s.v0
	}
	return s.v0 + s.slope*(t-s.start).Seconds()
}

// seek moves the cursor to the segment holding t and returns its index.
func (p *Profile) seek(t time.Duration) int {
	if len(p.segs) == 1 {
		return 0
	}
	if t < p.segs[p.cur].start { // time went back: search (allocation-free)
		p.cur = sort.Search(len(p.segs), func(i int) bool { return p.segs[i].start > t }) - 1
		return p.cur
	}
	for p.cur+1 < len(p.segs) && p.segs[p.cur+1].start <= t {
		p.cur++
	}
	return p.cur
}

// Value is the quantity at t.
func (p *Profile) Value(t time.Duration) float64 {
	if p.segs == nil {
		return 0
	}
	return p.segs[p.seek(t)].value(t)
}

// IsConstant reports whether the profile never changes.
func (p *Profile) IsConstant() bool { return len(p.segs) <= 1 }

// Min and Max are the profile's extreme values over all time.
func (p *Profile) Min() float64 {
	m := math.Inf(1)
	for _, s := range p.segs {
		m = min(m, s.v0)
	}
	return m
}

// Max is the largest value the profile takes.
func (p *Profile) Max() float64 {
	m := math.Inf(-1)
	for _, s := range p.segs {
		m = max(m, s.v0)
	}
	return m
}

// nextStart is the start of the segment after i (math.MaxInt64 if none).
func (p *Profile) nextStart(i int) time.Duration {
	if i+1 < len(p.segs) {
		return p.segs[i+1].start
	}
	return math.MaxInt64
}

// finish returns when a work of w units started at t is done, the profile
// being the rate of work per second (a link's bits/s): the first τ with
// ∫_t^{t+τ} rate = w. The rate must stay > 0 (NewServer checks it), so the
// answer exists; within a ramp the integral is quadratic in τ.
func (p *Profile) finish(t time.Duration, w float64) time.Duration {
	i := p.seek(t)
	for {
		s := p.segs[i]
		end := p.nextStart(i)
		r := s.value(t)
		var span float64 // seconds to the segment's end
		if end == math.MaxInt64 {
			span = math.Inf(1)
		} else {
			span = (end - t).Seconds()
		}
		// work available in [t, end): r·span + slope·span²/2
		avail := math.Inf(1)
		if !math.IsInf(span, 1) {
			avail = r*span + s.slope*span*span/2
		}
		if w <= avail {
			var tau float64
			if s.slope == 0 {
				tau = w / r
			} else {
				// root of slope/2·τ² + r·τ − w = 0 in the stable form.
				tau = 2 * w / (r + math.Sqrt(max(0, r*r+2*s.slope*w)))
			}
			return t + durationOf(tau)
		}
		w -= avail
		t = end
		i++
	}
}

// durationOf converts seconds to a Duration, rounding up so that a packet
// is never released before its last bit is served.
func durationOf(sec float64) time.Duration {
	return time.Duration(math.Ceil(sec * float64(time.Second)))
}
