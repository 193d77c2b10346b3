package leocc

import (
	"testing"
	"time"
)

// TestPeriodic: boundaries at offset + n·period.
func TestPeriodic(t *testing.T) {
	s := periodic{period: 15 * time.Second, offset: 12 * time.Second}
	for _, c := range []struct{ now, want time.Duration }{
		{0, 12 * time.Second}, {12 * time.Second, 12 * time.Second},
		{12*time.Second + 1, 27 * time.Second}, {41 * time.Second, 42 * time.Second},
	} {
		if got := s.Next(c.now); got != c.want {
			t.Errorf("Next(%v) = %v, want %v", c.now, got, c.want)
		}
	}
}

// TestScheduledTrigger: fires once per boundary, on the first ACK within
// 100 ms before it, never earlier.
func TestScheduledTrigger(t *testing.T) {
	tr := trigger{sched: periodic{period: 15 * time.Second, offset: 12 * time.Second}, window: defWindow}
	var fired []time.Duration
	for now := time.Duration(0); now < 45*time.Second; now += time.Millisecond {
		if tr.onAck(now, 1) {
			fired = append(fired, now)
		}
	}
	want := []time.Duration{11900 * time.Millisecond, 26900 * time.Millisecond, 41900 * time.Millisecond}
	if len(fired) != len(want) {
		t.Fatalf("fired at %v, want %v", fired, want)
	}
	for i := range want {
		if fired[i] != want[i] {
			t.Errorf("trigger %d at %v, want %v", i, fired[i], want[i])
		}
	}
	if tr.count != 3 {
		t.Errorf("count %d, want 3", tr.count)
	}
}

// TestDetectedTrigger: an ACK gap above 45 ms with data in flight is a
// reconfiguration; a 45 ms gap, or one while idle, is not.
func TestDetectedTrigger(t *testing.T) {
	for _, c := range []struct {
		gap      time.Duration
		inflight int
		want     bool
	}{
		{46 * time.Millisecond, 1448, true},
		{45 * time.Millisecond, 1448, false},
		{200 * time.Millisecond, 0, false},
		{time.Millisecond, 1448, false},
	} {
		tr := trigger{gap: defDetectGap}
		now := time.Second
		tr.onAck(now, c.inflight)
		if got := tr.onAck(now+c.gap, c.inflight); got != c.want {
			t.Errorf("gap %v, inflight %d: fired %v, want %v", c.gap, c.inflight, got, c.want)
		}
	}
}
