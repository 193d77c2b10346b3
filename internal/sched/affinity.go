package sched

import (
	"fmt"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// CPUs returns the CPUs the calling thread may run on, in ascending order.
func CPUs() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("sched_getaffinity: %w", err)
	}
	var cpus []int
	for c := range len(set) * 64 {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// Pin restricts the calling thread to cpu and returns a func that restores
// its previous mask. Callers lock the goroutine to its thread first.
func Pin(cpu int) (restore func() error, err error) {
	var old, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return nil, fmt.Errorf("sched_getaffinity: %w", err)
	}
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("pin to CPU %d: %w", cpu, err)
	}
	return func() error { return unix.SchedSetaffinity(0, &old) }, nil
}

// Avoid takes cpus out of the calling thread's allowed CPUs and returns a
// func that restores the previous mask. When nothing would remain, the mask
// is left as it is. Callers lock the goroutine to its thread first.
func Avoid(cpus []int) (restore func(), err error) {
	var old unix.CPUSet
	if len(cpus) == 0 {
		return func() {}, nil
	}
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return func() {}, fmt.Errorf("sched_getaffinity: %w", err)
	}
	set := old
	for _, c := range cpus {
		set.Clear(c)
	}
	if set.Count() == 0 || set == old {
		return func() {}, nil
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return func() {}, fmt.Errorf("keep off CPUs %v: %w", cpus, err)
	}
	return func() { _ = unix.SchedSetaffinity(0, &old) }, nil
}

// StartAvoiding starts cmd with cpus taken out of its allowed CPUs: the
// child inherits the mask of the thread that forks it (sched_setaffinity(2)),
// so it is started from a locked thread that avoids them for the call.
func StartAvoiding(cmd *exec.Cmd, cpus []int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	restore, err := Avoid(cpus)
	defer restore()
	if err != nil {
		return err
	}
	return cmd.Start()
}
