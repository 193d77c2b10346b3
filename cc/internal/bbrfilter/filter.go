package bbrfilter

// MaxFilter is a windowed running maximum: the largest value seen in the
// last win ticks (ticks are round trips for BBR's bandwidth filter). It
// keeps the best, second-best and third-best samples of successive
// sub-windows, Kathleen Nichols' algorithm as used by Linux
// lib/win_minmax.c (minmax_running_max), so when the best ages out a
// recent good one takes over. The zero value is an empty filter.
type MaxFilter struct {
	s [3]sample
}

type sample struct {
	t int64   // tick of the sample
	v float64 // value
}

// Reset forgets everything and starts over with the sample v at tick t
// (minmax_reset).
func (f *MaxFilter) Reset(t int64, v float64) {
	f.s[0] = sample{t, v}
	f.s[1] = f.s[0]
	f.s[2] = f.s[0]
}

// Get returns the windowed maximum.
func (f *MaxFilter) Get() float64 { return f.s[0].v }

// Update adds the sample v taken at tick t (ticks never decrease) and
// returns the maximum over the window of win ticks ending at t.
func (f *MaxFilter) Update(win, t int64, v float64) float64 {
	n := sample{t, v}
	if v >= f.s[0].v || t-f.s[2].t > win {
		f.Reset(t, v) // a new maximum, or nothing left in the window
		return v
	}
	switch {
	case v >= f.s[1].v:
		f.s[1] = n
		f.s[2] = n
	case v >= f.s[2].v:
		f.s[2] = n
	}
	return f.age(win, n)
}

// age expires the best sample once it falls out of the window and promotes
// the later ones; it also refreshes the second and third choices once a
// quarter and a half of the window have passed without a new one
// (minmax_subwin_update).
func (f *MaxFilter) age(win int64, n sample) float64 {
	dt := n.t - f.s[0].t
	switch {
	case dt > win:
		f.s[0], f.s[1], f.s[2] = f.s[1], f.s[2], n
		if n.t-f.s[0].t > win {
			f.s[0], f.s[1], f.s[2] = f.s[1], f.s[2], n
		}
	case f.s[1].t == f.s[0].t && dt > win/4:
		f.s[1] = n
		f.s[2] = n
	case f.s[2].t == f.s[1].t && dt > win/2:
		f.s[2] = n
	}
	return f.s[0].v
}
