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

// Nice reads back what SetNice set on the calling thread.
func TestNice(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	old, err := Nice(0)
	if err != nil {
		t.Fatal(err)
	}
	defer SetNice(0, old)
	want := min(old+1, 19) // lowering priority needs no privilege
	if err := SetNice(0, want); err != nil {
		t.Fatal(err)
	}
	if got, err := Nice(unix.Gettid()); err != nil || got != want {
		t.Errorf("nice %d (%v) after SetNice(%d)", got, err, want)
	}
}
