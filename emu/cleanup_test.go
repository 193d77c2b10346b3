package emu

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/emu/netns"
	"github.com/leolab/leolab/internal/sched"
)

// TestHelperEmulator is not a test: run by TestKillThenCleanup as a child
// process, it starts an emulator, prints its namespace names and waits to
// be killed.
func TestHelperEmulator(t *testing.T) {
	if os.Getenv("LEOLAB_EMU_HELPER") != "1" {
		t.Skip("helper process for TestKillThenCleanup")
	}
	e, err := Start(Config{Uplink: FixedLink(10e6, time.Millisecond, 100, 0, 1), Downlink: FixedLink(10e6, time.Millisecond, 100, 0, 2)})
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(1)
	}
	fmt.Println("NS", e.Client, e.Server, e.PumpCPU())
	time.Sleep(time.Minute)
}

// leftovers lists what a run could leave behind: its namespaces, and any
// device or route of ours in the root namespace (there should never be any).
func leftovers(t *testing.T, id string) []string {
	t.Helper()
	var out []string
	names, err := netns.List(Prefix + id)
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, names...)
	links, _ := exec.Command("ip", "-o", "link").Output()
	routes, _ := exec.Command("ip", "route").Output()
	for _, l := range strings.Split(string(links)+string(routes), "\n") {
		if strings.Contains(l, tunName) || strings.Contains(l, "10.77.0.") {
			out = append(out, l)
		}
	}
	return out
}

// resumeLatency reads cpu's resume latency limit ("" for no CPU, or a
// kernel without the file: runs then fall back to the process-wide
// request, which needs no restoring).
func resumeLatency(t *testing.T, cpu int) string {
	t.Helper()
	if cpu < 0 {
		return ""
	}
	b, err := os.ReadFile(resumeLatencyPath(cpu))
	if errors.Is(err, os.ErrNotExist) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func TestKillThenCleanup(t *testing.T) {
	needEmu(t)
	cpus, err := sched.CPUs()
	if err != nil {
		t.Fatal(err)
	}
	last := -1 // the helper's pump CPU, polling while it runs
	if len(cpus) > 1 {
		last = cpus[len(cpus)-1]
	}
	before := resumeLatency(t, last)
	cmd, f := startHelper(t)
	client := f[1]
	if pumpCPU, _ := strconv.Atoi(f[3]); pumpCPU != last {
		t.Errorf("helper's pump on CPU %d, want %d", pumpCPU, last)
	}
	id := strings.TrimSuffix(strings.TrimPrefix(client, Prefix), clientSuffix)
	if got := leftovers(t, id); len(got) != 2 {
		t.Fatalf("running emulator shows %v, want its two namespaces", got)
	}
	// Cleanup must leave a live run alone.
	if done, err := Cleanup(); err != nil || contains(done.Namespaces, client) || slices.Contains(done.CPUs, last) {
		t.Fatalf("Cleanup undid a live run: %+v %v", done, err)
	}
	if got := resumeLatency(t, last); before != "" && got != pollOnly {
		t.Errorf("cpu%d resume latency %q while the helper runs, want %q", last, got, pollOnly)
	}
	cmd.Process.Signal(os.Kill)
	cmd.Wait()
	done, err := Cleanup()
	if err != nil {
		t.Fatal(err)
	}
	if !contains(done.Namespaces, client) {
		t.Errorf("Cleanup removed %v, want %s among them", done.Namespaces, client)
	}
	if before != "" && !slices.Contains(done.CPUs, last) {
		t.Errorf("Cleanup restored CPUs %v, want %d among them", done.CPUs, last)
	}
	if got := leftovers(t, id); len(got) != 0 {
		t.Errorf("after kill -9 and Cleanup, left over: %v", got)
	}
	if got := resumeLatency(t, last); got != before {
		t.Errorf("after kill -9 and Cleanup, cpu%d resume latency %q, was %q", last, got, before)
	}
	if m, _ := filepath.Glob(filepath.Join(stateDir, idlePollMarker+"*-"+id)); len(m) != 0 {
		t.Errorf("markers left: %v", m)
	}
}

// startHelper runs an emulator in a child process (TestHelperEmulator) and
// returns it with the fields of its first line ("NS client server
// pump-cpu") once it runs.
func startHelper(t *testing.T) (*exec.Cmd, []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperEmulator$")
	cmd.Env = append(os.Environ(), "LEOLAB_EMU_HELPER=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "NS ") {
		cmd.Process.Kill()
		t.Fatalf("helper said %q, %v", line, err)
	}
	return cmd, strings.Fields(line)
}

// Issue 18's acceptance 4 as a user meets it: an emulator killed with -9,
// then a normal run (no --cleanup). The run removes the dead one's
// namespaces and says so, and its end leaves the CPU idle state as it
// was before either.
func TestKillThenStart(t *testing.T) {
	needEmu(t)
	cpus, err := sched.CPUs()
	if err != nil {
		t.Fatal(err)
	}
	last := -1
	if len(cpus) > 1 {
		last = cpus[len(cpus)-1]
	}
	before := resumeLatency(t, last)
	cmd, f := startHelper(t)
	client := f[1]
	id := strings.TrimSuffix(strings.TrimPrefix(client, Prefix), clientSuffix)
	cmd.Process.Signal(os.Kill)
	cmd.Wait()
	if got := leftovers(t, id); len(got) != 2 {
		t.Fatalf("a killed emulator leaves %v, want its two namespaces", got)
	}
	var notices []string
	e, err := Start(Config{Uplink: FixedLink(10e6, 0, 100, 0, 1), Downlink: FixedLink(10e6, 0, 100, 0, 2),
		Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if got := leftovers(t, id); len(got) != 0 {
		t.Errorf("after a new Start the killed run's %v are left", got)
	}
	if said := strings.Join(notices, "\n"); !strings.Contains(said, "removed namespace "+client) {
		t.Errorf("Start did not say it removed %s; it said %q", client, said)
	}
	if _, err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if got := resumeLatency(t, last); got != before {
		t.Errorf("after kill -9 and a new run, cpu%d resume latency %q, was %q", last, got, before)
	}
	t.Logf("notices: %q", notices)
}

func TestCloseRemovesEverything(t *testing.T) {
	needEmu(t)
	e, err := Start(Config{Uplink: FixedLink(10e6, 0, 100, 0, 1), Downlink: FixedLink(10e6, 0, 100, 0, 2)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if got := leftovers(t, e.ID); len(got) != 0 {
		t.Errorf("after Close, left over: %v", got)
	}
	if _, err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
