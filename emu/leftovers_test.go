package emu

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/emu/netns"
	"github.com/leolab/leolab/internal/sched"
)

// deadPID returns the pid of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if alive(pid) {
		t.Skipf("pid %d was reused at once", pid)
	}
	return pid
}

// TestStartCleansDeadRunLeftovers: issue 18 — after kill -9 of emu, the
// next run said nothing of the dead run's namespaces and, taking its
// leftover "n/a" for the administrator's setting, left the pump CPU
// polling after it ended. The dead run is simulated as kill -9 leaves it:
// its two namespaces and the idle-poll marker of its pump CPU, named by
// a dead pid, with that CPU polling. A normal Start removes and restores
// them and says so; at its Close the CPU is back at its original value.
func TestStartCleansDeadRunLeftovers(t *testing.T) {
	needEmu(t)
	id := strconv.Itoa(deadPID(t)) + "-deadbeef"
	dead := []string{Prefix + id + clientSuffix, Prefix + id + serverSuffix}
	for _, ns := range dead {
		if err := netns.Create(ns); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { netns.Delete(ns) }) // should be gone already
	}
	cpu, before := -1, ""
	if cpus, err := sched.CPUs(); err == nil && len(cpus) > 1 {
		cpu = cpus[len(cpus)-1] // where a run pins its pump
		before = resumeLatency(t, cpu)
	}
	polls := before != "" && before != pollOnly
	if polls {
		marker := filepath.Join(stateDir, idlePollMarker+strconv.Itoa(cpu)+"-"+id)
		if err := os.MkdirAll(stateDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(marker, []byte(before), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(resumeLatencyPath(cpu), []byte(pollOnly), 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { // whatever happens, the host gets its value back
			os.Remove(marker)
			if resumeLatency(t, cpu) != before {
				os.WriteFile(resumeLatencyPath(cpu), []byte(before), 0)
			}
		})
	} else {
		t.Logf("no CPU idle state to simulate (cpu %d, resume latency %q): namespaces only", cpu, before)
	}

	var notices []string
	e, err := Start(Config{Uplink: FixedLink(10e6, time.Millisecond, 100, 0, 1), Downlink: FixedLink(10e6, time.Millisecond, 100, 0, 2),
		Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if left, err := netns.List(Prefix + id); err != nil || len(left) != 0 {
		t.Errorf("after Start the dead run's namespaces %v are still there (%v)", left, err)
	}
	said := strings.Join(notices, "\n")
	for _, ns := range dead {
		if !strings.Contains(said, "removed namespace "+ns) {
			t.Errorf("Start did not say it removed %s; it said %q", ns, said)
		}
	}
	if polls {
		if !strings.Contains(said, "restored cpu"+strconv.Itoa(cpu)) {
			t.Errorf("Start did not say it restored cpu%d; it said %q", cpu, said)
		}
		if e.PumpCPU() == cpu && resumeLatency(t, cpu) != pollOnly {
			t.Errorf("the new run's pump CPU %d does not poll: %q", cpu, resumeLatency(t, cpu))
		}
	}
	if _, err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if polls {
		if got := resumeLatency(t, cpu); got != before {
			t.Errorf("after the run cpu%d's resume latency is %q, want the original %q", cpu, got, before)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(stateDir, idlePollMarker+"*-"+id)); len(m) != 0 {
		t.Errorf("the dead run's markers are left: %v", m)
	}
	t.Logf("notices: %q", notices)

	// Nothing left: a second run says nothing.
	notices = nil
	e, err = Start(Config{Uplink: FixedLink(10e6, 0, 100, 0, 1), Downlink: FixedLink(10e6, 0, 100, 0, 2),
		Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	if len(notices) != 0 {
		t.Errorf("a start without leftovers said %q", notices)
	}
}
