// Package sched sets the scheduling policy and CPU affinity of the calling
// thread (and of the programs it starts), for the emulator's pump and the
// live endpoints' timing-critical loops.
package sched

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// Other is SCHED_OTHER, the normal policy (include/uapi/linux/sched.h).
const Other = 0

// Set is sched_setscheduler(2) on the calling thread (pid 0): policy
// unix.SCHED_FIFO with a priority in 1–99 (sched(7)), or Other with 0.
// Callers lock the goroutine to its thread first.
func Set(policy int, priority int32) error {
	param := struct{ priority int32 }{priority}
	_, _, e := unix.RawSyscall(unix.SYS_SCHED_SETSCHEDULER, 0, uintptr(policy), uintptr(unsafe.Pointer(&param)))
	if e != 0 {
		return e
	}
	return nil
}

// Nice returns the nice value of thread tid (0: the calling thread). The
// raw getpriority(2) system call returns 20 - nice, to keep clear of -1.
func Nice(tid int) (int, error) {
	p, err := unix.Getpriority(unix.PRIO_PROCESS, tid)
	if err != nil {
		return 0, err
	}
	return 20 - p, nil
}

// SetNice sets the nice value of thread tid (0: the calling thread);
// setpriority(2) acts on one thread on Linux.
func SetNice(tid, nice int) error { return unix.Setpriority(unix.PRIO_PROCESS, tid, nice) }
