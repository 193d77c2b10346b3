package emu

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Idle polling on the pump's CPU. A CPU's resume latency limit
// (pm_qos_resume_latency_us, Documentation/ABI/testing/sysfs-devices-power)
// reads "0" when there is none; writing "n/a" sets a zero limit, which
// leaves the cpuidle governor only the polling state on that CPU. Unlike
// the process-wide request of /dev/cpu_dma_latency, it is not an fd and
// survives a kill -9, so each hold leaves a marker in stateDir naming the
// run and the value to restore, and Cleanup restores it for dead runs.
const (
	cpuSysfs       = "/sys/devices/system/cpu"
	pollOnly       = "n/a"
	idlePollMarker = "idlepoll-cpu"
	// stateDir holds the markers of a run's changes outside its
	// namespaces. Under /run: gone at reboot, like the sysfs values they
	// restore.
	stateDir = "/run/leolab"
)

func resumeLatencyPath(cpu int) string {
	return filepath.Join(cpuSysfs, "cpu"+strconv.Itoa(cpu), "power", "pm_qos_resume_latency_us")
}

// pollHold is the process's hold on one CPU's idle polling; runs of the
// process that share a pump CPU share it.
type pollHold struct {
	runs   int
	prev   string // the value to restore ("": another process set it, leave it)
	marker string
}

// holdIdlePoll makes cpu poll when idle for run id. host.mu is held.
func holdIdlePoll(cpu int, id string) error {
	if h := host.polls[cpu]; h != nil {
		h.runs++
		return nil
	}
	path := resumeLatencyPath(cpu)
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	h := &pollHold{runs: 1, prev: strings.TrimSpace(string(b))}
	if h.prev == pollOnly {
		h.prev = "" // polling already: another run, or the administrator
	} else {
		h.marker = filepath.Join(stateDir, idlePollMarker+strconv.Itoa(cpu)+"-"+id)
		if err := os.MkdirAll(stateDir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(h.marker, []byte(h.prev), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(pollOnly), 0); err != nil {
			os.Remove(h.marker)
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if host.polls == nil {
		host.polls = map[int]*pollHold{}
	}
	host.polls[cpu] = h
	return nil
}

// releaseIdlePoll drops a run's hold on cpu; the last run of the process
// restores the value it found. host.mu is held.
func releaseIdlePoll(cpu int) {
	h := host.polls[cpu]
	if h == nil {
		return
	}
	if h.runs--; h.runs > 0 {
		return
	}
	delete(host.polls, cpu)
	// A failed restore keeps its marker, so that Cleanup retries it.
	if h.prev != "" && restoreIdlePoll(cpu, h.prev) == nil {
		os.Remove(h.marker)
	}
}

// restoreIdlePoll writes prev back unless someone changed the value since.
func restoreIdlePoll(cpu int, prev string) error {
	path := resumeLatencyPath(cpu)
	if b, err := os.ReadFile(path); err != nil || strings.TrimSpace(string(b)) != pollOnly {
		return err
	}
	return os.WriteFile(path, []byte(prev), 0)
}

// cleanupIdlePolls restores the CPUs held by runs whose process is gone
// and returns the CPUs it restored.
func cleanupIdlePolls() ([]int, error) {
	markers, _ := filepath.Glob(filepath.Join(stateDir, idlePollMarker+"*"))
	var done []int
	var errs []error
	for _, m := range markers {
		cpuStr, id, ok := strings.Cut(strings.TrimPrefix(filepath.Base(m), idlePollMarker), "-")
		cpu, err := strconv.Atoi(cpuStr)
		pid, pidOK := idOwner(id)
		if !ok || err != nil || !pidOK || alive(pid) {
			continue
		}
		prev, err := os.ReadFile(m)
		if err == nil {
			err = restoreIdlePoll(cpu, string(prev))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("restoring cpu%d idle state: %w", cpu, err))
			continue
		}
		os.Remove(m)
		done = append(done, cpu)
	}
	return done, errors.Join(errs...)
}
