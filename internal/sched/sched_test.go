package sched

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// The normal policy is always allowed; an invalid priority is refused with
// the kernel's EINVAL.
func TestSet(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := Set(Other, 0); err != nil {
		t.Fatalf("SCHED_OTHER: %v", err)
	}
	if err := Set(unix.SCHED_FIFO, 1000); err != unix.EINVAL {
		t.Errorf("SCHED_FIFO priority 1000: %v, want EINVAL", err)
	}
}
