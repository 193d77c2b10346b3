package probe

import (
	"testing"
	"time"
)

// The grid survives a missed outage and a stray one, and the period is
// the longest that fits (not a divisor, not a multiple).
func TestFitSchedule(t *testing.T) {
	const tol = 100 * time.Millisecond
	sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	cases := []struct {
		name          string
		starts        []float64
		lengths       []float64 // ms; nil: all 45 ms
		span          float64   // the trace: [0, span]
		period, phase float64
		on, off       int
	}{
		{"clean", []float64{9, 24, 39, 54, 69}, nil, 80, 15, 9, 5, 0},
		{"one missed", []float64{9, 24, 54, 69, 84}, nil, 90, 15, 9, 5, 0},
		{"one stray", []float64{9, 24, 31.7, 39, 54, 69}, nil, 80, 15, 9, 5, 1},
		{"jittered", []float64{8.75, 23.73, 38.74, 53.73, 68.79, 83.74}, nil, 90, 15, 8.74, 6, 0},
		{"two only", []float64{3, 18}, nil, 20, 15, 3, 2, 0},
		// A live run's three outages and a pump stall that falls on a
		// 5 s grid with them (emu, 50 s): that grid passes seven
		// boundaries without an outage.
		{"stall on a divisor", []float64{9.72, 24.72, 39.72, 49.785}, nil, 50, 15, 9.72, 3, 1},
		// A live run's two outages and a stall before them, which pairs
		// with the second on a 26.9 s grid: same count, but only the 15 s
		// grid's outages are alike.
		{"stall on a longer period", []float64{2.16, 14.057, 29.057}, []float64{20, 45.3, 45.3}, 32, 15, 14.057, 2, 1},
		// A heavily loaded host: five stalls between two reconfigurations
		// (a live run while the machine trained models).
		{"five stalls between", []float64{4.781, 5.531, 9.621, 10.248, 17.744, 18.672, 20.531},
			[]float64{26.7, 46.7, 261, 37.3, 36, 37.3, 46.6}, 32, 15, 5.531, 2, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var starts, lengths []time.Duration
			for i, s := range c.starts {
				starts = append(starts, sec(s))
				l := 45.0
				if c.lengths != nil {
					l = c.lengths[i]
				}
				lengths = append(lengths, time.Duration(l*float64(time.Millisecond)))
			}
			s, ok := fitSchedule(starts, lengths, 0, sec(c.span), 5*time.Second, 60*time.Second, tol)
			if !ok {
				t.Fatal("no schedule")
			}
			if d := s.Period - sec(c.period); abs(d) > 10*time.Millisecond {
				t.Errorf("period %v, want %vs", s.Period, c.period)
			}
			if d := s.Phase - sec(c.phase); abs(d) > 30*time.Millisecond {
				t.Errorf("phase %v, want %vs", s.Phase, c.phase)
			}
			if s.OnGrid != c.on || s.Off != c.off {
				t.Errorf("%d on grid, %d off, want %d and %d", s.OnGrid, s.Off, c.on, c.off)
			}
		})
	}
	// Outages closer than the shortest period looked for give no schedule.
	// (Two outages always fit some grid: the fit cannot tell a stray pair
	// from a schedule, which is why Report gives OnGrid and Off.)
	if s, ok := fitSchedule([]time.Duration{sec(1), sec(2.3), sec(3.9)}, make([]time.Duration, 3), 0, sec(10), 5*time.Second, 60*time.Second, tol); ok {
		t.Errorf("schedule %+v from three unrelated outages", s)
	}
}
