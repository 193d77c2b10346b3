package emu

import (
	"golang.org/x/sys/unix"

	"github.com/leolab/leolab/internal/sched"
)

// pumpPriority is the pump thread's SCHED_FIFO priority (sched(7): 1–99).
// Low among real-time threads (kernel IRQ threads run at 50), but above
// every normal thread, so a woken pump preempts the endpoints and the
// build jobs of a shared host instead of waiting out their time slice. The
// kernel's RT throttling (sched_rt_runtime_us, 95% by default) keeps a
// runaway pump from locking a core.
const pumpPriority = 10

// setRealtime puts the calling thread in SCHED_FIFO at pumpPriority.
func setRealtime() error { return sched.Set(unix.SCHED_FIFO, pumpPriority) }

// pinLastCPU keeps the calling thread on the highest CPU it may use, when it
// may use more than one: a real-time pump free to migrate preempts the
// endpoints wherever they run, and a CBR sender preempted for a few ms
// catches up in a burst that queues in the TUN before the pump reads it.
func pinLastCPU() {
	var set unix.CPUSet
	if unix.SchedGetaffinity(0, &set) != nil || set.Count() < 2 {
		return
	}
	last := -1
	for i := range 1024 {
		if set.IsSet(i) {
			last = i
		}
	}
	var one unix.CPUSet
	one.Set(last)
	_ = unix.SchedSetaffinity(0, &one)
}
