package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/emu"
	"github.com/leolab/leolab/internal/livetest"
	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/profile"
	"github.com/spf13/cobra"
)

// execCmd runs a command built by fn (the lead wires emu/shell into the
// root command; these tests call them directly).
func execCmd(t *testing.T, c *cobra.Command, args ...string) error {
	t.Helper()
	c.SilenceUsage, c.SilenceErrors = true, true
	c.SetArgs(args)
	return c.Execute()
}

func needEmu(t *testing.T) {
	t.Helper()
	livetest.Need(t)
}

// shellIperf3 runs `leolab shell args...` (an iperf3 -J client through the
// live link) and returns the iperf3 report it printed, parsed by leolab's
// reader, and the command's stderr. It skips without the emulator or iperf3.
func shellIperf3(t *testing.T, args ...string) (*iperf.Run, string) {
	t.Helper()
	needEmu(t)
	if _, err := exec.LookPath("iperf3"); err != nil {
		t.Skip("skipping: iperf3 not installed (apt-get install iperf3)")
	}
	var out, errb bytes.Buffer
	c := newShellCmd()
	c.SetOut(&out)
	c.SetErr(&errb)
	if err := execCmd(t, c, args...); err != nil {
		t.Fatalf("%v\nstderr: %s\nstdout: %s", err, errb.String(), out.String())
	}
	run, err := iperf.Parse("shell", out.Bytes())
	if err != nil {
		t.Fatalf("iperf reader rejects the output: %v\n%s", err, out.String())
	}
	return run, errb.String()
}

// wantUsageErrors runs a fresh command from newCmd with each argument list
// and wants a usageError (exit 2) from each.
func wantUsageErrors(t *testing.T, newCmd func() *cobra.Command, argLists ...[]string) {
	t.Helper()
	for _, args := range argLists {
		c := newCmd()
		c.SetOut(&bytes.Buffer{})
		c.SetErr(&bytes.Buffer{})
		if err := execCmd(t, c, args...); !isUsage(err) {
			t.Errorf("%s %v: %T %v, want a usage error", c.Name(), args, err, err)
		}
	}
}

func isUsage(err error) bool {
	_, ok := err.(usageError)
	return ok
}

// Acceptance 4 of issue 7: Debian's iperf3 through `leolab shell` with -J
// gives JSON that leolab's iperf reader accepts, with a plausible rate.
func TestShellRealIperf3(t *testing.T) {
	run, stderr := shellIperf3(t, "--rate", "50Mbps", "--rtt", "20ms", "--server", "iperf3 -s -1",
		"--", "iperf3", "-c", emu.ServerIP, "-J", "-t", "3", "-C", "cubic")
	got := run.End.SumReceived.BitsPerSecond / 1e6
	// 50 Mbit/s of IP bytes is 48.3 Mbit/s of TCP payload; slow start over
	// 3 s at a 20 ms RTT costs little.
	if got < 35 || got > 48.4 {
		t.Errorf("iperf3 received %.1f Mbit/s through a 50 Mbit/s link, want 35–48.4", got)
	}
	if run.SenderCC != "cubic" || len(run.Intervals) < 3 {
		t.Errorf("sender cc %q, %d intervals", run.SenderCC, len(run.Intervals))
	}
	if !strings.Contains(stderr, "release error") {
		t.Errorf("no pump report on stderr: %q", stderr)
	}
}

func TestShellNeedsCommand(t *testing.T) {
	c := newShellCmd()
	c.SetOut(&bytes.Buffer{})
	c.SetErr(&bytes.Buffer{})
	if err := execCmd(t, c); err == nil || !isCobraUsage(err) {
		t.Fatalf("shell without a command: %v, want a usage error", err)
	}
	c = newShellCmd()
	if err := execCmd(t, c, "--rate", "fast", "--", "true"); err == nil {
		t.Fatal("bad --rate accepted")
	} else if !isUsage(err) {
		t.Fatalf("bad --rate: %T %v, want a usage error", err, err)
	}
}

func TestShellProfileFlags(t *testing.T) {
	wantUsageErrors(t, newShellCmd,
		[]string{"--profile", "nope", "--", "true"},
		[]string{"--profile", "starlink", "--rate", "10Mbps", "--", "true"},
		[]string{"--city", "sydney", "--", "true"},
		[]string{"--profile", "starlink", "--city", "atlantis", "--", "true"})
}

// Real iperf3 through the live Starlink Sydney path: the kernel sender's
// minimum RTT is the path's idle 26 ms (DESIGN.md), plus the slot's OWD
// shift each way (up to the profile's owd_max: the run's slots depend on
// the wall clock) and at most a frame each way. iperf3's min_rtt is the
// least of its per-second smoothed RTTs, so it takes a few seconds: on a
// loaded host a starved iperf3 writes in bursts that queue at the site's
// ~10.5 Mbit/s uplink allocation (1.1 ms a packet) and inflate a sample;
// 2 ms of slack covers the smoothing. One-MSS writes (-l 1400: iperf3's
// default 128 KB block is 87 packets, 100 ms at that allocation) and six
// snapshots keep a burst of the client's own from inflating all of them
// (a CI run read 42.9 ms from four with the pump's gaps under 2 ms). A
// run in which the pump was kept off its CPU longer than the slack is
// repeated (livetest.Repeat).
func TestShellStarlinkIperf3(t *testing.T) {
	p, err := profile.Starlink("sydney", nil)
	if err != nil {
		t.Fatal(err)
	}
	const slack = 2 * time.Millisecond
	idle := p.Downlink.BaseOWD + p.Uplink.BaseOWD + 2*p.Terrestrial.OneWay
	hi := idle + p.Downlink.Drift.OWDMax + p.Uplink.Drift.OWDMax + 2*p.TDMA.Frame + slack
	livetest.Repeat(t, func(a *livetest.Attempt) {
		run, stderr := shellIperf3(t, "--profile", "starlink", "--city", "sydney", "--server", "iperf3 -s -1",
			"--", "iperf3", "-c", emu.ServerIP, "-J", "-t", "6", "-b", "5M", "-l", "1400")
		if gap, ok := pumpLongest(stderr); ok {
			a.Stall("pump kept off its CPU", gap, slack)
		}
		fl := run.Flows()
		if len(fl) != 1 {
			a.Errorf("%d flows", len(fl))
			return
		}
		if rtt := time.Duration(fl[0].MinRTTMs * float64(time.Millisecond)); rtt < idle-time.Millisecond || rtt > hi {
			var snaps []string
			for _, iv := range run.Intervals {
				for _, s := range iv.Streams {
					snaps = append(snaps, s.RTT.String())
				}
			}
			a.Errorf("min RTT %v through the Sydney path, want %v–%v (idle %v); per-second smoothed RTTs %v", rtt, idle-time.Millisecond, hi, idle, snaps)
		}
	})
}

// pumpLongest reads the pump's longest time off its CPU from leolab
// shell's summary line ("kept off its CPU N times (longest D)").
func pumpLongest(stderr string) (time.Duration, bool) {
	_, rest, ok := strings.Cut(stderr, "(longest ")
	if !ok {
		return 0, false
	}
	v, _, ok := strings.Cut(rest, ")")
	if !ok {
		return 0, false
	}
	d, err := time.ParseDuration(v)
	return d, err == nil
}

// A --server that runs until killed, behind a shell that does not exec it
// (the "; true"), is stopped with its process group when the client ends:
// before, the orphaned server held shell's stderr pipe and shell never
// returned.
func TestShellStopsServer(t *testing.T) {
	needEmu(t)
	// A sleep no other process on the machine runs: "sleep 600" alone
	// matched a developer's own shell once and failed the test.
	marker := fmt.Sprintf("sleep 600.%d", os.Getpid())
	done := make(chan error, 1)
	go func() {
		c := newShellCmd()
		c.SetOut(&bytes.Buffer{})
		c.SetErr(&bytes.Buffer{})
		done <- execCmd(t, c, "--rate", "50Mbps", "--rtt", "10ms", "--server", marker+"; true", "--", "true")
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("shell did not return 60 s after its command ended: the server outlived it")
	}
	if out, _ := exec.Command("pgrep", "-f", marker).Output(); len(out) > 0 {
		t.Errorf("the server's sleep still runs: pids %s", out)
	}
}
