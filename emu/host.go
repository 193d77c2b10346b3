package emu

import (
	"fmt"
	"path/filepath"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/leolab/leolab/internal/sched"
)

// Unless Config.Shared is set, a run tunes the host for timing while it
// lasts, in three ways, each measured with CBR through a fixed link on a
// 2-core VM (issue 7, acceptance 1; delay error against the link model):
//
//   - The pump runs pinned to a CPU of its own, which the run's endpoint
//     threads and `leolab shell`'s programs keep off (KeepOff). Unpinned,
//     the kernel queued the nice -20 CBR sender behind the real-time pump
//     for up to 78 ms; at 500 Mbit/s through 1 Gbit/s the error's p99 was
//     1–22 ms, pinned 0.1–0.9 ms.
//   - The process's threads run at nice -20. The runtime preempts a
//     goroutine that has run 10 ms without a scheduling point (sysmon),
//     and the pump's goroutine, locked to its thread, is then handed to
//     another of the process's threads and back: 20–45 µs when that thread
//     gets a CPU at once, up to 9 ms when it queues behind the nice -20
//     endpoints. Same load: p99 95–164 µs raised, 265–827 µs not.
//   - The process holds a zero CPU wake-up latency request (PM QoS,
//     Documentation/power/pm_qos_interface.rst), so idle CPUs poll instead
//     of halting, as cyclictest does while it measures: a halted vCPU takes
//     tens of µs to wake, and the pump's timer and TUN wake-ups pay it. At
//     25 Mbit/s through 50 Mbit/s: p50 42–46 µs halting, 22 µs polling.
//
// The pinning and the priorities are undone when the last run of the
// process closes (programs started meanwhile, like `leolab shell`'s, keep
// the nice value they inherited); the latency request is an fd, dropped at
// Close or exit.

// cpuLatencyDev is the kernel's CPU latency QoS device: a process that
// writes a 32-bit bound in µs holds it on every CPU until it closes the fd.
const cpuLatencyDev = "/dev/cpu_dma_latency"

// runNice is the nice value of the process's threads during a run
// (setpriority(2), per thread on Linux): the strongest CFS weight.
const runNice = -20

// host counts the process's runs and remembers what the first one changed.
var host struct {
	mu   sync.Mutex
	runs int
	// baseNice is the nice value threads return to when the last run
	// closes; raised tells whether the threads were raised.
	baseNice int
	raised   bool
}

// tuneHost registers a run and, unless shared, tunes the host for it: it
// chooses the pump's CPU (pinned by runPump), takes the latency request
// and raises the process's threads. It returns the latency fd (-1: none).
func (e *Emulator) tuneHost(shared bool) int {
	host.mu.Lock()
	defer host.mu.Unlock()
	k := host.runs
	host.runs++
	e.pumpCPU = -1
	if shared {
		return -1
	}
	e.pumpCPU = choosePumpCPU(k)
	if !host.raised {
		host.raised = raiseThreads(&host.baseNice)
	}
	fd, err := holdCPULatency()
	if err != nil {
		return -1
	}
	e.idlePolls = true
	return fd
}

// untuneHost unregisters a run; the last one restores the threads.
func untuneHost() {
	host.mu.Lock()
	defer host.mu.Unlock()
	host.runs--
	if host.runs == 0 && host.raised {
		setThreadsNice(host.baseNice, func(n int) bool { return n < host.baseNice })
		host.raised = false
	}
}

// choosePumpCPU returns the CPU for the process's k-th running pump (from
// 0): the highest CPU the calling thread may run on, the next lower for a
// second pump, and so on, never the lowest, which is left to everything
// else. It returns -1 (no pinning) when there is a single CPU.
func choosePumpCPU(k int) int {
	cpus, err := sched.CPUs()
	if err != nil || len(cpus) < 2 {
		return -1
	}
	return cpus[len(cpus)-1-k%(len(cpus)-1)]
}

// raiseThreads sets every thread of the process to runNice, storing the
// calling thread's nice value in base. Threads created later inherit the
// value of the thread that creates them, so the runtime's new threads are
// raised too. It reports whether any thread was raised (not without
// CAP_SYS_NICE).
func raiseThreads(base *int) bool {
	nice, err := sched.Nice(0)
	if err != nil {
		return false
	}
	*base = nice
	if *base <= runNice {
		return false
	}
	return setThreadsNice(runNice, func(n int) bool { return n > runNice }) > 0
}

// setThreadsNice sets nice on every thread of the process whose current
// value passes change, and returns how many it set.
func setThreadsNice(nice int, change func(int) bool) int {
	tids, _ := filepath.Glob("/proc/self/task/*")
	n := 0
	for _, d := range tids {
		tid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		cur, err := sched.Nice(tid)
		if err != nil || !change(cur) {
			continue // exited, or already where it should be
		}
		if sched.SetNice(tid, nice) == nil {
			n++
		}
	}
	return n
}

// holdCPULatency asks for zero wake-up latency and returns the fd that
// holds the request.
func holdCPULatency() (int, error) {
	fd, err := unix.Open(cpuLatencyDev, unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("%s: %w", cpuLatencyDev, err)
	}
	var zero [4]byte // int32 0, in any byte order
	if _, err := unix.Write(fd, zero[:]); err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("%s: %w", cpuLatencyDev, err)
	}
	return fd, nil
}
