package link

import (
	"testing"
	"time"

	"github.com/leolab/leolab/packet"
)

// A shifted delay line runs on its own axis: entered at 150 ms on the
// caller's clock (50 ms on its own, By 100 ms), released 20 ms later on
// both.
func TestShift(t *testing.T) {
	d, _ := NewDelay(20 * time.Millisecond)
	s := Shift{S: d, By: 100 * time.Millisecond}
	if s.NextEvent() != Never {
		t.Fatal("idle shift has an event")
	}
	s.Enqueue(150*time.Millisecond, &packet.Packet{})
	if p := d.q.Peek(); p.EnqueuedAt != 50*time.Millisecond {
		t.Errorf("stage saw %v, want 50ms", p.EnqueuedAt)
	}
	if ev := s.NextEvent(); ev != 170*time.Millisecond {
		t.Errorf("next event %v, want 170ms", ev)
	}
	if s.Dequeue(169*time.Millisecond) != nil || s.Dequeue(170*time.Millisecond) == nil {
		t.Error("released at the wrong time")
	}
}
