package emu

import (
	"testing"
	"time"
)

// A pump that never sleeps on its own owes restShare of its time: running
// flat out with the forced rests, it rests that share and never more than
// one quantum at once, so the kernel's 95% real-time limit is never reached.
func TestRestBudget(t *testing.T) {
	var r restBudget
	var now, rested, longest time.Duration
	for now < time.Second {
		now += 10 * time.Microsecond // one loop iteration of work
		if r.ran(now); r.due() {
			d := r.owed + 50*time.Microsecond // the nanosleep wakes ~50 µs late
			now += d
			rested += d
			longest = max(longest, d)
			r.slept(now, d)
		}
	}
	share := float64(rested) / float64(now)
	if share < restShare || share > restShare+0.05 {
		t.Errorf("rested %.3f of the time, want %.2f..%.2f", share, restShare, restShare+0.05)
	}
	if longest > restQuantum+60*time.Microsecond {
		t.Errorf("longest rest %v, want about restQuantum %v plus the wake-up", longest, restQuantum)
	}
	// Sleeping on its own pays the debt: a pump idle half the time owes
	// nothing.
	r = restBudget{running: now}
	for range 1000 {
		now += 100 * time.Microsecond
		r.ran(now)
		now += 100 * time.Microsecond
		r.slept(now, 100*time.Microsecond)
		if r.due() {
			t.Fatal("a half-idle pump was made to rest")
		}
	}
}
