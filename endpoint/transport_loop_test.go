package endpoint

import (
	"testing"
	"time"
)

// TestClockNowWall: the offset maps the wall clock onto time since the
// epoch: a CLOCK_REALTIME reading taken next to nowWall lands within a few
// microseconds of its now.
func TestClockNowWall(t *testing.T) {
	c := clock{epoch: time.Now().Add(-3 * time.Second)}
	before := time.Now().UnixNano()
	now, off := c.nowWall()
	after := time.Now().UnixNano()
	lo, hi := time.Duration(before-off), time.Duration(after-off)
	if now < lo || now > hi {
		t.Errorf("now %v outside the wall readings mapped through the offset [%v, %v]", now, lo, hi)
	}
	// 3 s since the epoch, up to the test's own scheduling delay.
	if now < 3*time.Second || now > 3*time.Second+time.Second {
		t.Errorf("now %v, want 3 s after the epoch", now)
	}
}
