// Package livetest serialises the tests that run the live emulator.
//
// Those tests measure wall-clock behaviour (the pump's release error, the
// throughput of real TCP through a rate-limited link) on a machine of a
// few cores. `go test ./...` runs packages in parallel, and two packages'
// live tests at once starve each other's pumps: a 100 Mbit/s link then
// delivers 80. Every live test takes one machine-wide lock first, and so
// does a test that keeps every core busy for tens of seconds (calibrate's
// fit), which starves a pump as surely.
package livetest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// lockName is the lock file in the temporary directory, shared by every
// test binary of the module.
const lockName = "leolab-live-tests.lock"

var (
	mu    sync.Mutex
	held  int      // live tests of this process holding the lock
	lockF *os.File // the locked file while held > 0
)

// Lock blocks until no other process runs live tests and holds the lock
// until tb ends. Nested calls (a subtest of a live test) share the lock.
func Lock(tb testing.TB) {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if held == 0 {
		f, err := os.OpenFile(filepath.Join(os.TempDir(), lockName), os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			tb.Fatalf("livetest: %v", err)
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
			f.Close()
			tb.Fatalf("livetest: lock %s: %v", f.Name(), err)
		}
		lockF = f
	}
	held++
	tb.Cleanup(release)
}

func release() {
	mu.Lock()
	defer mu.Unlock()
	if held--; held == 0 {
		unix.Flock(int(lockF.Fd()), unix.LOCK_UN)
		lockF.Close()
		lockF = nil
	}
}
