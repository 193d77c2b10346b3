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
//   - The pump's CPU polls when idle instead of halting (a zero resume
//     latency limit on that CPU, idlepoll.go), as cyclictest makes CPUs do
//     while it measures: a halted vCPU takes tens of µs to wake, and the
//     pump's timer and TUN wake-ups pay it. At 25 Mbit/s through 50 Mbit/s
//     and 10 s per run: p50 45–57 µs halting, 23–27 µs polling. Only that
//     CPU: with every CPU polling (the process-wide request of
//     /dev/cpu_dma_latency, PM QoS, Documentation/power/pm_qos_interface.rst)
//     both vCPUs look busy to the hypervisor, which then withholds one
//     for 7–8 ms at a time (no interrupt at all reaches it meanwhile) and
//     now and then for 36–55 ms: 7 ms gaps (gaps.go) in 5 of 15 runs, one
//     p99 above 200 µs; polling on the pump's CPU only, none in 15 and
//     p99 50–110 µs. The process-wide request remains the fallback when
//     the pump has no CPU of its own or the CPU's limit cannot be set.
//
// The pinning and the priorities are undone when the last run of the
// process closes (programs started meanwhile, like `leolab shell`'s, keep
// the nice value they inherited), and so is the CPU's polling; Cleanup
// restores a CPU left polling by a killed run. The process-wide request
// is an fd, dropped at Close or exit.

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
	// polls are the pump CPUs held polling (idlepoll.go).
	polls map[int]*pollHold
}

// tuneHost registers a run and, unless shared, tunes the host for it: it
// chooses the pump's CPU (pinned by runPump), makes that CPU poll when
// idle and raises the process's threads. Without a pump CPU of its own, or
// when its polling cannot be set, it takes the process-wide latency
// request instead and returns its fd (-1: none).
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
	if e.pumpCPU >= 0 && holdIdlePoll(e.pumpCPU, e.ID) == nil {
		e.pollCPU, e.idlePolls = e.pumpCPU, true
		return -1
	}
	fd, err := holdCPULatency()
	e.idlePolls = err == nil
	return fd
}

// untuneHost unregisters a run and releases its CPU's polling; the last
// run restores the threads.
func (e *Emulator) untuneHost() {
	host.mu.Lock()
	defer host.mu.Unlock()
	if e.pollCPU >= 0 {
		releaseIdlePoll(e.pollCPU)
		e.pollCPU = -1
	}
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
