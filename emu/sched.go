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
