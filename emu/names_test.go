package emu

import (
	"os"
	"strconv"
	"strings"
	"testing"
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
