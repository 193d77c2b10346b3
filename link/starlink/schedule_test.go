package starlink

import (
	"testing"
	"time"
)

func TestMinuteOffset(t *testing.T) {
	at := time.Date(2026, 11, 30, 21, 7, 42, 500e6, time.FixedZone("x", 5*3600+1800))
	if got, want := MinuteOffset(at), 42500*time.Millisecond; got != want {
		t.Errorf("offset %v, want %v (zone must not matter)", got, want)
	}
}

func TestScheduleNext(t *testing.T) {
	p := mustProfile(t, "", nil)
	s := NewSchedule(p, 5*time.Second) // t = 0 is :05
	cases := []struct{ now, want time.Duration }{
		{0, 7 * time.Second},                  // :12
		{7 * time.Second, 7 * time.Second},    // at a boundary: itself
		{7*time.Second + 1, 22 * time.Second}, // :27
		{50 * time.Second, 52 * time.Second},  // :57
		{53 * time.Second, 67 * time.Second},  // next minute's :12
	}
	for _, c := range cases {
		if got := s.Next(c.now); got != c.want {
			t.Errorf("Next(%v) = %v, want %v", c.now, got, c.want)
		}
	}
	if got := s.SlotStart(0); got != -8*time.Second { // :57 of the previous minute
		t.Errorf("SlotStart(0) = %v, want -8s", got)
	}
}
