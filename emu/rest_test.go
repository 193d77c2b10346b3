package emu

import (
	"testing"
	"time"
)

// A pump that never sleeps on its own owes restShare of its time: running
// flat out with the forced rests, it rests that share (less the allowance)
// and never more than about one quantum at once, so the kernel's 95%
// real-time limit is never reached. A burst shorter than the allowance
// runs uninterrupted.
func TestRestBudget(t *testing.T) {
	var r restBudget
	var now, rested, longest, firstRest time.Duration
	for now < 10*time.Second {
		now += 10 * time.Microsecond // one loop iteration of work
		if r.ran(now); r.due() {
			d := r.owed - restAllowance + 50*time.Microsecond // the nanosleep wakes ~50 µs late
			if firstRest == 0 {
				firstRest = now
			}
			now += d
			rested += d
			longest = max(longest, d)
			r.slept(now, d)
		}
	}
	share := float64(rested) / float64(now)
	if lo := restShare - float64(restAllowance)/float64(now); share < lo || share > restShare+0.05 {
		t.Errorf("rested %.4f of the time, want %.4f..%.2f", share, lo, restShare+0.05)
	}
	if longest > restQuantum+60*time.Microsecond {
		t.Errorf("longest rest %v, want about restQuantum %v plus the wake-up", longest, restQuantum)
	}
	if firstRest < 50*time.Millisecond {
		t.Errorf("first forced rest after %v of work, want a burst of >= 50 ms uninterrupted", firstRest)
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
