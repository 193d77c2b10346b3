package schedule

import (
	"math"
	"testing"
	"time"
)

func TestProfileStepsAndRamps(t *testing.T) {
	p, err := NewProfile(100, []Change{
		{At: 10 * time.Second, Value: 20},
		{At: 20 * time.Second, Ramp: 10 * time.Second, Value: 70},
		{At: 40 * time.Second, Value: 5},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		t    time.Duration
		want float64
	}{
		{0, 100}, {10*time.Second - 1, 100}, {10 * time.Second, 20}, {19 * time.Second, 20},
		{20 * time.Second, 20}, {25 * time.Second, 45}, {30 * time.Second, 70}, {39 * time.Second, 70},
		{40 * time.Second, 5}, {time.Hour, 5},
		{15 * time.Second, 20}, // time going back: found by search
	} {
		if got := p.Value(c.t); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Value(%v) = %g, want %g", c.t, got, c.want)
		}
	}
	if p.Min() != 5 || p.Max() != 100 {
		t.Errorf("min/max %g/%g, want 5/100", p.Min(), p.Max())
	}
}

func TestProfileRefusesDisorder(t *testing.T) {
	for _, ch := range [][]Change{
		{{At: 20 * time.Second, Value: 1}, {At: 10 * time.Second, Value: 2}},
		{{At: 10 * time.Second, Ramp: 10 * time.Second, Value: 1}, {At: 15 * time.Second, Value: 2}},
		{{At: -time.Second, Value: 1}},
		{{At: time.Second, Value: math.NaN()}},
	} {
		if _, err := NewProfile(0, ch); err == nil {
			t.Errorf("%v: accepted", ch)
		}
	}
}

// A packet's service integrates the rate: 12 000 bits at 1 Mbit/s take
// 12 ms; started 6 ms before a step to 100 Mbit/s, 6000 bits remain and take
// 60 µs more. Under a ramp 1→3 Mbit/s over 1 s, rate(τ) = 1e6(1+2τ), the
// integral 1e6(τ+τ²) = 12 000 gives τ = 11.857 ms.
func TestFinishIntegratesRate(t *testing.T) {
	step, _ := NewProfile(1e6, []Change{{At: 6 * time.Millisecond, Value: 100e6}})
	if got, want := step.finish(0, 12000), 6*time.Millisecond+60*time.Microsecond; got != want {
		t.Errorf("across a step: %v, want %v", got, want)
	}
	if got := step.finish(10*time.Millisecond, 12000); got != 10*time.Millisecond+120*time.Microsecond {
		t.Errorf("after the step: %v, want 10.12ms", got)
	}
	ramp, _ := NewProfile(1e6, []Change{{At: 0, Ramp: time.Second, Value: 3e6}})
	tau := (-1 + math.Sqrt(1+4*0.012)) / 2
	if got := ramp.finish(0, 12000).Seconds(); math.Abs(got-tau) > 1e-9 {
		t.Errorf("in a ramp: %.9fs, want %.9fs", got, tau)
	}
	// A work spanning the ramp's end: 0.5 s of ramp from 2 Mbit/s gives
	// 1e6(0.5+0.25)=... then the rest at 3 Mbit/s.
	got := ramp.finish(500*time.Millisecond, 2e6).Seconds()
	// bits in [0.5, 1]: ∫ 1e6(1+2τ) = 1e6[(1-0.5) + (1-0.25)] = 1.25e6; rest 0.75e6 at 3e6 = 0.25 s
	if want := 1.25; math.Abs(got-want) > 1e-9 {
		t.Errorf("across the ramp's end: %.9fs, want %.9fs", got, want)
	}
}
