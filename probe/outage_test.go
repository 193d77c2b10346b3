package probe

import (
	"testing"
	"time"
)

// trace returns 1 ms-spaced samples over 2 s with a 14 ms delay, passed
// through edit (which may drop, hold or lose samples).
func trace(edit func(s Sample) (Sample, bool)) []Sample {
	var out []Sample
	for k := range 2000 {
		s := Sample{Sent: time.Duration(k) * time.Millisecond, OWD: 14 * time.Millisecond}
		if s, keep := edit(s); keep {
			out = append(out, s)
		}
	}
	return out
}

func outagesOf(s []Sample) []Outage {
	before, after := delayFloor(s, time.Second)
	return findOutages(s, before, after, 10*time.Millisecond, time.Millisecond, 250*time.Millisecond)
}

// A link that holds what is sent in [1 s, 1.045 s) until 1.045 s is an
// outage from 1 s to 1.045 s; one that loses it is too; a sender that
// sends nothing then is not (the arrivals pause, but nothing was late).
func TestOutageNeedsTheLink(t *testing.T) {
	from, to := time.Second, time.Second+45*time.Millisecond
	in := func(s Sample) bool { return s.Sent >= from && s.Sent < to }
	cases := []struct {
		name string
		edit func(s Sample) (Sample, bool)
		want int
	}{
		{"held", func(s Sample) (Sample, bool) {
			if in(s) {
				s.OWD += to - s.Sent
			}
			return s, true
		}, 1},
		{"lost", func(s Sample) (Sample, bool) {
			s.Lost = in(s)
			return s, true
		}, 1},
		{"sender paused", func(s Sample) (Sample, bool) { return s, !in(s) }, 0},
		{"short hold", func(s Sample) (Sample, bool) {
			if s.Sent >= from && s.Sent < from+5*time.Millisecond {
				s.OWD += from + 5*time.Millisecond - s.Sent
			}
			return s, true
		}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := outagesOf(trace(c.edit))
			if len(got) != c.want {
				t.Fatalf("%d outages %+v, want %d", len(got), got, c.want)
			}
			if c.want == 0 {
				return
			}
			o := got[0]
			// Start: the last packet before left at 0.999 s; End: the
			// first after it at 1.045 s.
			if abs(o.Start-from) > time.Millisecond || abs(o.End-to) > time.Millisecond {
				t.Errorf("outage %v–%v, want %v–%v ± 1 ms", o.Start, o.End, from, to)
			}
		})
	}
}
