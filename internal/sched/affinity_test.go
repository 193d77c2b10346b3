package sched

import (
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func needCPUs(t *testing.T, n int) []int {
	t.Helper()
	cpus, err := CPUs()
	if err != nil {
		t.Fatal(err)
	}
	if len(cpus) < n {
		t.Skipf("skipping: %d CPUs allowed, the test needs %d", len(cpus), n)
	}
	return cpus
}

func TestPinAndAvoid(t *testing.T) {
	all := needCPUs(t, 2)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		t.Fatal(err)
	}
	defer unix.SchedSetaffinity(0, &old)

	last := all[len(all)-1]
	restore, err := Avoid([]int{last})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := CPUs(); slices.Contains(got, last) || len(got) != len(all)-1 {
		t.Errorf("after Avoid(%d): CPUs %v", last, got)
	}
	restore()
	if got, _ := CPUs(); !slices.Equal(got, all) {
		t.Errorf("after restore: CPUs %v, want %v", got, all)
	}
	// Avoiding every CPU would leave the thread nowhere to run: no change.
	restore, err = Avoid(all)
	if err != nil {
		t.Fatal(err)
	}
	restore()
	if got, _ := CPUs(); !slices.Equal(got, all) {
		t.Errorf("after Avoid(all): CPUs %v, want %v", got, all)
	}
	unpin, err := Pin(last)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := CPUs(); !slices.Equal(got, []int{last}) {
		t.Errorf("after Pin(%d): CPUs %v", last, got)
	}
	if err := unpin(); err != nil {
		t.Fatal(err)
	}
	if got, _ := CPUs(); !slices.Equal(got, all) {
		t.Errorf("after unpinning: CPUs %v, want %v", got, all)
	}
}

// A child started by StartAvoiding inherits the reduced mask; the calling
// goroutine's threads keep theirs.
func TestStartAvoiding(t *testing.T) {
	all := needCPUs(t, 2)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("skipping: no sh")
	}
	last := all[len(all)-1]
	cmd := exec.Command(sh, "-c", "grep Cpus_allowed_list /proc/self/status")
	var out strings.Builder
	cmd.Stdout = &out
	if err := StartAvoiding(cmd, []int{last}); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	list := strings.TrimSpace(strings.TrimPrefix(out.String(), "Cpus_allowed_list:"))
	for _, r := range strings.Split(list, ",") {
		lo, hi, _ := strings.Cut(r, "-")
		a, _ := strconv.Atoi(lo)
		b := a
		if hi != "" {
			b, _ = strconv.Atoi(hi)
		}
		if a <= last && last <= b {
			t.Errorf("child allowed on %q, which includes CPU %d", list, last)
		}
	}
	if got, _ := CPUs(); !slices.Equal(got, all) {
		t.Errorf("caller's CPUs %v after the start, want %v", got, all)
	}
}
