package probe

import "time"

// delayFloor returns, for every sample i, the least delay of the
// delivered samples sent in [Sent_i - w, Sent_i] (before) and in
// [Sent_i, Sent_i + w] (after): the path's delay without queueing or
// holding around that time. A window (rather than the trace's minimum)
// follows the floor's shifts at reconfigurations (seed 001 finding 15),
// and the two sides keep a shift out of the other interval's estimates; a
// queue that stands for longer than the window raises it.
func delayFloor(s []Sample, w time.Duration) (before, after []time.Duration) {
	return windowMin(s, w, false), windowMin(s, w, true)
}

// windowMin is the sliding minimum of the delivered samples' delays over
// [Sent_i - w, Sent_i] (forward = false) or [Sent_i, Sent_i + w].
func windowMin(s []Sample, w time.Duration, forward bool) []time.Duration {
	n := len(s)
	out := make([]time.Duration, n)
	q := make([]int, 0, 64) // indices, delays increasing
	head := 0
	for k := range n {
		i := k
		if forward {
			i = n - 1 - k
		}
		if !s[i].Lost {
			for len(q) > head && s[q[len(q)-1]].OWD >= s[i].OWD {
				q = q[:len(q)-1]
			}
			q = append(q, i)
		}
		for len(q) > head {
			d := s[i].Sent - s[q[head]].Sent
			if forward {
				d = -d
			}
			if d <= w {
				break
			}
			head++
		}
		if len(q) > head {
			out[i] = s[q[head]].OWD
		} else {
			out[i] = 1 << 62
		}
		if head > 1024 && head > len(q)/2 {
			q = append(q[:0], q[head:]...)
			head = 0
		}
	}
	return out
}
