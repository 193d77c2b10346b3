package endpoint

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// senderPriority is the SCHED_FIFO priority (sched(7): 1–99) of the
// endpoints' timing-critical threads (CBR sender, transport loops): above
// every normal thread, so the build jobs of a shared host cannot delay a
// send by a time slice (tens of ms), and below the emulator's pump (10),
// which must preempt them. They sleep between sends and spin only briefly;
// the kernel's RT throttling (sched_rt_runtime_us) bounds a runaway.
const senderPriority = 5

// schedOther is SCHED_OTHER, the normal policy (include/uapi/linux/sched.h).
const schedOther = 0

// lockRealtime locks the calling goroutine to its thread, makes the thread
// SCHED_FIFO at senderPriority (best effort: without the privilege it stays
// normal) with a 1 ns timer slack (prctl(2); the default 50 µs would
// dominate short sleeps). The returned func restores the thread and
// unlocks it. It reports whether the thread is real-time.
func lockRealtime() (restore func(), realtime bool) {
	runtime.LockOSThread()
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
	realtime = setScheduler(unix.SCHED_FIFO, senderPriority) == nil
	return func() {
		if realtime {
			_ = setScheduler(schedOther, 0)
		}
		_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 0, 0, 0, 0)
		runtime.UnlockOSThread()
	}, realtime
}

// setScheduler is sched_setscheduler(2) on the calling thread.
func setScheduler(policy int, priority int32) error {
	param := struct{ priority int32 }{priority}
	_, _, e := unix.RawSyscall(unix.SYS_SCHED_SETSCHEDULER, 0, uintptr(policy), uintptr(unsafe.Pointer(&param)))
	if e != 0 {
		return e
	}
	return nil
}
