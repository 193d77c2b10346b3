package emu

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/leolab/leolab/internal/sched"
)

// threadsOn returns the threads of this process whose CPU list is exactly
// list (the Cpus_allowed_list of /proc/<tid>/status), with their policy
// lines from /proc/<tid>/sched.
func threadsOn(t *testing.T, list string) []string {
	t.Helper()
	dirs, err := filepath.Glob("/proc/self/task/*")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range dirs {
		st, err := os.ReadFile(filepath.Join(d, "status"))
		if err != nil {
			continue // the thread exited
		}
		for _, line := range strings.Split(string(st), "\n") {
			if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok && strings.TrimSpace(v) == list {
				sc, _ := os.ReadFile(filepath.Join(d, "sched"))
				for _, l := range strings.Split(string(sc), "\n") {
					if strings.HasPrefix(l, "policy") {
						got = append(got, strings.Join(strings.Fields(l), " "))
					}
				}
			}
		}
	}
	return got
}

// niceValues returns the nice values of the process's threads.
func niceValues(t *testing.T) map[int]int {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/self/task/*")
	got := map[int]int{}
	for _, d := range dirs {
		tid, _ := strconv.Atoi(filepath.Base(d))
		if n, err := sched.Nice(tid); err == nil {
			got[tid] = n
		}
	}
	return got
}

// A run tunes the host while it lasts: the pump runs SCHED_FIFO pinned to
// the highest CPU, which KeepOff names, the process's threads run at
// runNice and the pump's CPU alone polls when idle; Close undoes it all.
// A Shared run changes nothing.
func TestHostTuning(t *testing.T) {
	needEmu(t)
	cpus, err := sched.CPUs()
	if err != nil {
		t.Fatal(err)
	}
	if len(cpus) < 2 {
		t.Skipf("skipping: %d CPU, nothing to pin to", len(cpus))
	}
	last := cpus[len(cpus)-1]
	// Earlier tests' pumps gave their threads back as they were.
	if on := threadsOn(t, strconv.Itoa(last)); len(on) > 0 {
		t.Errorf("before the run, threads pinned to CPU %d: %q", last, on)
	}
	idle := map[int]string{}
	for _, c := range cpus {
		idle[c] = resumeLatency(t, c)
	}
	base := niceValues(t)
	for tid, n := range base {
		if n <= runNice {
			t.Fatalf("thread %d already at nice %d before the run", tid, n)
		}
	}
	e, err := Start(Config{Uplink: FixedLink(10e6, 0, 100, 0, 1), Downlink: FixedLink(10e6, 0, 100, 0, 2)})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.PumpCPU() != last || len(e.KeepOff()) != 1 || e.KeepOff()[0] != last {
		t.Errorf("PumpCPU %d, KeepOff %v; want CPU %d", e.PumpCPU(), e.KeepOff(), last)
	}
	// SCHED_FIFO is policy 1 (include/uapi/linux/sched.h).
	on := threadsOn(t, strconv.Itoa(last))
	if len(on) != 1 || on[0] != "policy : 1" {
		t.Errorf("threads pinned to CPU %d: %q, want the pump alone (policy 1)", last, on)
	}
	for tid, n := range niceValues(t) {
		if n != runNice {
			t.Errorf("thread %d at nice %d during the run, want %d", tid, n, runNice)
		}
	}
	// The pump's CPU alone polls when idle.
	for _, c := range cpus {
		want := idle[c]
		if c == last && want != "" {
			want = pollOnly
		}
		if got := resumeLatency(t, c); got != want {
			t.Errorf("cpu%d resume latency %q during the run, want %q", c, got, want)
		}
	}
	st, err := e.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !st.IdlePolls || st.PumpCPU != last {
		t.Errorf("stats: idle polls %v, pump CPU %d", st.IdlePolls, st.PumpCPU)
	}
	for _, c := range cpus {
		if got := resumeLatency(t, c); got != idle[c] {
			t.Errorf("cpu%d resume latency %q after the run, was %q", c, got, idle[c])
		}
	}
	for tid, n := range niceValues(t) {
		if b, ok := base[tid]; ok && n != b {
			t.Errorf("thread %d at nice %d after the run, was %d", tid, n, b)
		}
	}

	free, err := Start(Config{Uplink: FixedLink(10e6, 0, 100, 0, 1), Downlink: FixedLink(10e6, 0, 100, 0, 2), Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	defer free.Close()
	if free.PumpCPU() != -1 || free.KeepOff() != nil {
		t.Errorf("Shared: PumpCPU %d, KeepOff %v", free.PumpCPU(), free.KeepOff())
	}
	for tid, n := range niceValues(t) {
		if b, ok := base[tid]; ok && n != b {
			t.Errorf("Shared: thread %d at nice %d, was %d", tid, n, b)
		}
	}
	if st, _ := free.Close(); st.IdlePolls || st.PumpCPU != -1 {
		t.Errorf("Shared: stats idle polls %v, pump CPU %d", st.IdlePolls, st.PumpCPU)
	}
}

// Parallel pumps take distinct CPUs from the highest down, never the
// lowest, and wrap around when there are more pumps than CPUs.
func TestChoosePumpCPU(t *testing.T) {
	cpus, err := sched.CPUs()
	if err != nil {
		t.Fatal(err)
	}
	n := len(cpus)
	if n < 2 {
		if c := choosePumpCPU(0); c != -1 {
			t.Errorf("one CPU: pump CPU %d, want -1", c)
		}
		return
	}
	if c := choosePumpCPU(0); c != cpus[n-1] {
		t.Errorf("first pump on CPU %d, want the highest, %d", c, cpus[n-1])
	}
	seen := map[int]bool{}
	for k := range n - 1 {
		c := choosePumpCPU(k)
		if c == cpus[0] || seen[c] {
			t.Errorf("pump %d on CPU %d (CPUs %v, taken %v)", k, c, cpus, seen)
		}
		seen[c] = true
	}
	if c := choosePumpCPU(n - 1); c != cpus[n-1] {
		t.Errorf("pump %d on CPU %d, want the highest again", n-1, c)
	}
}
