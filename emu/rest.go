package emu

import (
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The pump spins while releases are close together, which at a few hundred
// Mbit/s is nearly always. A SCHED_FIFO thread that runs more than
// sched_rt_runtime_us of every sched_rt_period_us (950 ms of 1 s by
// default, sched(7)) is throttled for the rest of the period: every packet
// then waits up to 50 ms. The rest budget keeps the pump below that share by
// owing restShare of its running time and paying it off in sleeps: its own
// sleeps count, and once it owes more than restAllowance it takes short
// nanosleeps (TUN fds not watched), each delaying the packets due meanwhile
// by ~0.1 ms instead of 50. The allowance lets bursts of up to ~80 ms run
// uninterrupted (a line-rate burst must be read as it came); over any
// second the pump still runs at most (1 + allowance + quantum/1 s) x
// (1 - restShare) = 94.5% of it.
const (
	// restShare is the fraction of time the pump sleeps at least: just
	// above the 5% the kernel withholds, so that a pump that was never
	// throttled is rarely made to rest (each rest delays the packets due
	// meanwhile).
	restShare = 0.06
	// restAllowance is the debt the pump may carry before it must rest.
	restAllowance = 5 * time.Millisecond
	// restQuantum is the least debt above the allowance paid in one
	// forced rest: short enough to bound the added delay, long enough that
	// the wake-up cost (~50 µs) is not most of it.
	restQuantum = 100 * time.Microsecond
)

// restBudget tracks the pump's rest debt.
type restBudget struct {
	owed    time.Duration // rest owed
	running time.Duration // when the pump last woke, or the debt was last updated
	forced  int64         // forced rests taken
}

// ran adds the running time up to now to the debt.
func (r *restBudget) ran(now time.Duration) {
	if now > r.running {
		r.owed += time.Duration(float64(now-r.running) * restShare / (1 - restShare))
		r.running = now
	}
}

// slept pays the debt with a sleep that ended at now after slept.
func (r *restBudget) slept(now, slept time.Duration) {
	r.owed = max(0, r.owed-slept)
	r.running = now
}

// due reports whether a forced rest is owed.
func (r *restBudget) due() bool { return r.owed >= restAllowance+restQuantum }

// rest sleeps off the debt above the allowance without watching the TUNs
// (a raw nanosleep keeps the pump's P, as the epoll sleep does).
func (pu *pump) rest() {
	d := pu.restB.owed - restAllowance
	pu.gaps.sleep(d)
	ts := unix.NsecToTimespec(int64(d))
	from := pu.now()
	_, _, _ = unix.RawSyscall(unix.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), 0, 0)
	now := pu.now()
	pu.restB.slept(now, now-from)
	pu.restB.forced++
}
