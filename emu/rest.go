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
// sleeps count, and when it owes restQuantum it takes a short nanosleep
// (TUN fds not watched), which delays the packets due meanwhile by ~0.1 ms
// instead of 50.
const (
	// restShare is the fraction of time the pump sleeps at least: just
	// above the 5% the kernel withholds, so that a pump that was never
	// throttled is rarely made to rest (each rest delays the packets due
	// meanwhile).
	restShare = 0.06
	// restQuantum is the debt paid in one forced rest: short enough to
	// bound the added delay, long enough that the wake-up cost (~50 µs)
	// is not most of it.
	restQuantum = 100 * time.Microsecond
)

// restBudget tracks the pump's rest debt.
type restBudget struct {
	owed    time.Duration // rest owed
	running time.Duration // when the pump last woke, or the debt was last updated
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
func (r *restBudget) due() bool { return r.owed >= restQuantum }

// rest sleeps for the debt without watching the TUNs (a raw nanosleep keeps
// the pump's P, as the epoll sleep does) and pays it.
func (pu *pump) rest() {
	ts := unix.NsecToTimespec(int64(pu.restB.owed))
	from := pu.now()
	_, _, _ = unix.RawSyscall(unix.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), 0, 0)
	now := pu.now()
	pu.restB.slept(now, now-from)
	pu.rests++
}
