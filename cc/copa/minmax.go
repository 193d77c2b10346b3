package copa

import "time"

// windowMin is a windowed running minimum over time: the smallest value
// seen in the last win. It keeps the best, second-best and third-best
// samples of successive sub-windows (Kathleen Nichols' algorithm, as Linux
// lib/win_minmax.c minmax_running_min), so it needs O(1) memory and time,
// never allocates, and takes a different window on every update (Copa's
// RTT_standing window is srtt/2). A running maximum is the minimum of
// negated values (see windowMax).
type windowMin struct {
	s   [3]mmSample
	set bool
}

type mmSample struct {
	t time.Duration
	v time.Duration
}

// reset forgets everything and starts over with one sample.
func (f *windowMin) reset(t, v time.Duration) time.Duration {
	f.s[0] = mmSample{t, v}
	f.s[1], f.s[2] = f.s[0], f.s[0]
	f.set = true
	return v
}

// get returns the windowed minimum (0 before any sample).
func (f *windowMin) get() time.Duration { return f.s[0].v }

// update adds v taken at time t (non-decreasing) and returns the minimum
// over the window of length win ending at t.
func (f *windowMin) update(win, t, v time.Duration) time.Duration {
	if !f.set || v <= f.s[0].v || t-f.s[2].t > win {
		return f.reset(t, v) // a new minimum, or nothing left in the window
	}
	n := mmSample{t, v}
	switch {
	case v <= f.s[1].v:
		f.s[1], f.s[2] = n, n
	case v <= f.s[2].v:
		f.s[2] = n
	}
	// Expire the best once it leaves the window; refresh the second and
	// third choices after a quarter and a half of the window.
	dt := t - f.s[0].t
	switch {
	case dt > win:
		f.s[0], f.s[1], f.s[2] = f.s[1], f.s[2], n
		if t-f.s[0].t > win {
			f.s[0], f.s[1], f.s[2] = f.s[1], f.s[2], n
		}
	case f.s[1].t == f.s[0].t && dt > win/4:
		f.s[1], f.s[2] = n, n
	case f.s[2].t == f.s[1].t && dt > win/2:
		f.s[2] = n
	}
	return f.s[0].v
}

// windowMax is a windowed running maximum built on windowMin.
type windowMax struct{ m windowMin }

func (f *windowMax) get() time.Duration { return -f.m.get() }

func (f *windowMax) update(win, t, v time.Duration) time.Duration {
	return -f.m.update(win, t, -v)
}
