package emu

import "time"

// gapMin is the least time the pump must be away from its loop, beyond
// what it asked to sleep, to count as a gap: five times the 200 µs p99
// delay-error target of issue 7, and above the longest normal iteration
// (two full read batches and their releases, ~0.7 ms at 1 Gbit/s).
const gapMin = time.Millisecond

// gapMeter finds the times the pump did not run although it was due to:
// from one top of its loop to the next, minus the sleep it asked for.
// The pump is SCHED_FIFO on a CPU of its own, so a gap is time its CPU
// spent elsewhere: on a VM, mostly the hypervisor not running that vCPU
// (a trace of one shows no interrupt at all on the CPU for 7–8 ms while
// the pump's 1 ms timer was armed); otherwise kernel work or the Go
// runtime handing the pump's goroutine between threads. Packets due or
// arriving during a gap are late by up to its length, which is what puts
// a run's delay-error p99 above a millisecond.
type gapMeter struct {
	top   time.Duration // the last top of the loop (0: none yet)
	asked time.Duration // sleep asked for since then
	n     int64
	total time.Duration
	max   time.Duration
}

// loop is called at each top of the pump's loop.
func (g *gapMeter) loop(now time.Duration) {
	if g.top > 0 {
		if lost := now - g.top - g.asked; lost > gapMin {
			g.n++
			g.total += lost
			g.max = max(g.max, lost)
		}
	}
	g.top, g.asked = now, 0
}

// sleep records a sleep of at most d asked for in this iteration.
func (g *gapMeter) sleep(d time.Duration) { g.asked += d }
