package emu

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of /proc/stat's CPU times (USER_HZ, proc(5)): 100 on
// every Linux architecture Go supports.
const userHZ = 100

// hostSteal returns the time the hypervisor ran other work while this
// machine's vCPUs wanted to run, summed over CPUs (/proc/stat "cpu" line,
// steal column, proc(5)); 0 on bare metal. The pump cannot release a
// packet while its vCPU is stolen, so a run's steal explains delay-error
// outliers that no pump change can remove.
func hostSteal() (time.Duration, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	return parseSteal(string(b))
}

// parseSteal extracts the aggregate steal time from /proc/stat's text.
func parseSteal(stat string) (time.Duration, error) {
	for _, line := range strings.Split(stat, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "cpu" {
			continue
		}
		// cpu user nice system idle iowait irq softirq steal ...
		if len(f) < 9 {
			return 0, fmt.Errorf("/proc/stat: cpu line has no steal column: %q", line)
		}
		ticks, err := strconv.ParseInt(f[8], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/stat: steal %q: %w", f[8], err)
		}
		return time.Duration(ticks) * time.Second / userHZ, nil
	}
	return 0, fmt.Errorf("/proc/stat: no cpu line")
}
