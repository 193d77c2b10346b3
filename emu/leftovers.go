package emu

import "fmt"

// cleanDeadRuns is a run's first step: it undoes what runs killed before
// they could close (kill -9) left behind, which it finds by the dead pid
// in their run ids (names.go), exactly as --cleanup does: their namespaces
// go, and a pump CPU they left polling gets its idle state back. That must
// come before this run takes a pump CPU: a leftover "n/a" would otherwise
// pass for the administrator's setting (idlepoll.go) and stay after this
// run too. Runs of live processes are untouched. What was undone is told
// to notice (nil: nobody); a failure to undo is told too and does not stop
// the run, which needs none of it.
func cleanDeadRuns(notice func(string)) {
	done, err := Cleanup()
	if notice == nil {
		return
	}
	for _, n := range done.Namespaces {
		pid, _ := ownerPID(n)
		notice(fmt.Sprintf("removed namespace %s, left by a dead run (pid %d)", n, pid))
	}
	for _, cpu := range done.CPUs {
		notice(fmt.Sprintf("restored cpu%d's idle state (%s), left polling by a dead run", cpu, resumeLatencyPath(cpu)))
	}
	if err != nil {
		notice(fmt.Sprintf("leftovers of dead runs not all removed: %v (try leolab emu --cleanup)", err))
	}
}
