package leocc

// winMax is a running maximum over a window of round trips with O(1) state:
// the Kathleen Nichols estimator of Linux lib/win_minmax.c
// (minmax_running_max, minmax_reset), which LeoCC uses for max bw. It
// keeps the best sample and the best ones of the later quarter and half of
// the window, so when the best ages out a recent good one takes over.
type winMax struct {
	est [3]stamped
}

// stamped is one sample: value v taken at round r.
type stamped struct {
	r int64
	v float64
}

// reset forgets every sample and restarts with v at round r.
func (w *winMax) reset(r int64, v float64) {
	w.est = [3]stamped{{r, v}, {r, v}, {r, v}}
}

// best returns the windowed maximum.
func (w *winMax) best() float64 { return w.est[0].v }

// add feeds sample v at round r (rounds never decrease) into a window of
// win rounds.
func (w *winMax) add(win, r int64, v float64) {
	s := stamped{r, v}
	if v >= w.est[0].v || r-w.est[2].r > win {
		w.reset(r, v)
		return
	}
	if v >= w.est[1].v {
		w.est[1], w.est[2] = s, s
	} else if v >= w.est[2].v {
		w.est[2] = s
	}
	w.expire(win, s)
}

// expire promotes the later choices when the best falls out of the window,
// and refreshes the second and third choices after a quarter and a half
// of the window without a better one (lib/win_minmax.c minmax_subwin_update).
func (w *winMax) expire(win int64, s stamped) {
	age := s.r - w.est[0].r
	switch {
	case age > win:
		w.est = [3]stamped{w.est[1], w.est[2], s}
		if s.r-w.est[0].r > win {
			w.est = [3]stamped{w.est[1], w.est[2], s}
		}
	case w.est[1].r == w.est[0].r && age > win/4:
		w.est[1], w.est[2] = s, s
	case w.est[2].r == w.est[1].r && age > win/2:
		w.est[2] = s
	}
}
