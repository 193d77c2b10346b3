package livetest

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// While a test holds the lock another open file description cannot take
// it (another process's test would block); nested holds share it and the
// last release frees it.
func TestLockExcludesOthersAndNests(t *testing.T) {
	path := filepath.Join(os.TempDir(), lockName)
	tryOther := func() bool {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			return false
		}
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		return true
	}
	t.Run("held", func(t *testing.T) {
		Lock(t)
		t.Run("nested", func(t *testing.T) {
			Lock(t)
			if tryOther() {
				t.Error("lock taken by another file description while held")
			}
		})
		if tryOther() {
			t.Error("lock free after the nested release while the outer test holds it")
		}
	})
	// Another test binary may hold the lock by now: check our own state.
	mu.Lock()
	defer mu.Unlock()
	if held != 0 || lockF != nil {
		t.Errorf("held %d, file %v after every test released the lock; want 0, nil", held, lockF)
	}
}
