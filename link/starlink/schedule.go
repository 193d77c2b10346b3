package starlink

import (
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/profile"
)

// Schedule is the reconfiguration schedule of a run: boundaries at the times
// t (since the run's epoch) where (Epoch + t - Offset) mod Period == 0, i.e.
// seconds :12, :27, :42, :57 of each UTC minute with the default profile
// (seed 001 §Reconfigurations). It satisfies cc.Schedule for LeoCC and SaTCP.
type Schedule struct {
	// Epoch is the time since the start of the UTC minute at t = 0.
	Epoch, Period, Offset time.Duration
}

var _ cc.Schedule = Schedule{}

// MinuteOffset is t's position within its UTC minute: the epoch a run
// whose t = 0 is the instant t gives NewSchedule.
func MinuteOffset(t time.Time) time.Duration {
	return t.Sub(t.UTC().Truncate(time.Minute))
}

// NewSchedule returns the profile's schedule for a run whose t = 0 is epoch
// after the start of a UTC minute.
func NewSchedule(p *profile.StarlinkProfile, epoch time.Duration) Schedule {
	return Schedule{Epoch: epoch, Period: p.Reconfig.Period, Offset: p.Reconfig.Offset}
}

// phase is (Epoch + t - Offset) mod Period in [0, Period).
func (s Schedule) phase(t time.Duration) time.Duration {
	r := (s.Epoch + t - s.Offset) % s.Period
	if r < 0 {
		r += s.Period
	}
	return r
}

// Next returns the first boundary at or after now.
func (s Schedule) Next(now time.Duration) time.Duration {
	r := s.phase(now)
	if r == 0 {
		return now
	}
	return now + s.Period - r
}

// SlotStart returns the last boundary at or before now (which may be before
// the run's start).
func (s Schedule) SlotStart(now time.Duration) time.Duration {
	return now - s.phase(now)
}
