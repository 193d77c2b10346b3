package endpoint

import (
	"runtime"

	"golang.org/x/sys/unix"

	"github.com/leolab/leolab/internal/sched"
)

// senderNice is the nice value (setpriority(2), per thread on Linux) of
// the endpoints' timing-critical threads (CBR sender and receiver,
// transport loops): at -20 a thread weighs ~87x a normal one (kernel
// sched_prio_to_weight), so the build jobs of a shared host delay its
// wake-ups by microseconds instead of a time slice. Not SCHED_FIFO: with
// the pump already real-time, real-time endpoints spinning or receiving at
// hundreds of Mbit/s on a 2-core host exhaust the kernel's RT budget
// (sched_rt_runtime_us, 95%) and get every real-time thread, the pump
// included, throttled for ~50 ms.
const senderNice = -20

// transportPriority is the SCHED_FIFO priority (sched(7): 1–99) of the
// transport's sender and receiver loops: below the emulator's pump (10),
// above every normal thread. Their pacing and timer wake-ups then have the
// precision of the kernel's own hrtimer-driven TCP pacing (microseconds,
// not a loaded host's time slices), which BBR's bandwidth probing on the
// demand-allocated Starlink link depends on. They sleep between wake-ups
// and spin at most DefaultTransportSpin; the CBR endpoints, which write
// and read at up to line rate, stay at senderNice.
const transportPriority = 5

// lockFIFO locks the calling goroutine to its thread and makes the thread
// SCHED_FIFO at transportPriority with a 1 ns timer slack (falling back to
// lockRealtime's nice -20 without the privilege), off the CPUs keepOff.
// The returned func restores the thread and unlocks it; the bool reports
// SCHED_FIFO.
func lockFIFO(keepOff []int) (restore func(), fifo bool) {
	unlock, _ := lockRealtime(keepOff)
	fifo = sched.Set(unix.SCHED_FIFO, transportPriority) == nil
	return func() {
		if fifo {
			_ = sched.Set(sched.Other, 0)
		}
		unlock()
	}, fifo
}

// lockRealtime locks the calling goroutine to its thread, raises the
// thread's priority to senderNice (best effort: without the privilege it
// stays as it is), sets a 1 ns timer slack (prctl(2); the default 50 µs
// would dominate short sleeps) and takes the CPUs keepOff (the emulator's
// pump CPU, emu.Emulator.KeepOff) out of its mask, best effort too. The
// returned func restores the thread and unlocks it. It reports whether the
// priority was raised.
func lockRealtime(keepOff []int) (restore func(), raised bool) {
	runtime.LockOSThread()
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
	unpin, _ := sched.Avoid(keepOff)
	old, err := sched.Nice(0)
	raised = err == nil && sched.SetNice(0, senderNice) == nil
	return func() {
		if raised {
			_ = sched.SetNice(0, old)
		}
		_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 0, 0, 0, 0)
		unpin()
		runtime.UnlockOSThread()
	}, raised
}
