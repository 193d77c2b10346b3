package emu

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestRunIDAndOwner(t *testing.T) {
	a, err := newRunID()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newRunID()
	if a == b {
		t.Fatalf("two run ids are equal: %s", a)
	}
	if !strings.HasPrefix(a, strconv.Itoa(os.Getpid())+"-") {
		t.Fatalf("run id %s does not start with our pid", a)
	}
	pid, ok := ownerPID(Prefix + a + clientSuffix)
	if !ok || pid != os.Getpid() {
		t.Fatalf("ownerPID = %d %v, want %d", pid, ok, os.Getpid())
	}
	for _, bad := range []string{"other-1-x-c", Prefix + "x-1-c", Prefix + "12", Prefix + "-1-c"} {
		if _, ok := ownerPID(bad); ok {
			t.Errorf("ownerPID(%q) accepted a foreign name", bad)
		}
	}
	if !alive(os.Getpid()) {
		t.Errorf("our own process reported dead")
	}
}

// A run's owner killed but not yet waited for is a zombie: Cleanup must
// treat it as gone.
func TestZombieOwnerIsDead(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start sleep: %v", err)
	}
	pid := cmd.Process.Pid
	if !alive(pid) {
		t.Fatalf("running child %d reported dead", pid)
	}
	cmd.Process.Kill()
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("killed, unreaped child %d still reported alive", pid)
		}
		time.Sleep(time.Millisecond)
	}
	cmd.Wait()
	if alive(pid) {
		t.Errorf("reaped child %d reported alive", pid)
	}
}
