package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leolab/leolab/emu"
	"github.com/leolab/leolab/emu/netns"
	"github.com/leolab/leolab/internal/livetest"
	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/result"
)

// The field tools end to end across the live Starlink model: `leolab net
// serve` in the emulator's server namespace, `leolab net probe` in the
// client's, both real processes (this test binary as the CLI) talking over
// the emulated path as they would over a dish. The downlink probe's result
// gives the prober the model's schedule (15 s at :12, :27, :42, :57 UTC),
// its 45 ms outage (plus up to a frame) and its 1/750 s frame. 32 s hold
// two boundaries wherever the run falls in the minute. A pump stall longer
// than the prober's threshold adds an off-schedule outage: allowed, up to
// the number of stalls the shell reports.
func TestNetProbeThroughEmulator(t *testing.T) {
	needEmu(t)
	t.Setenv(cliChildEnv, "1") // the shell's children run this binary as leolab
	p, err := profile.Starlink("", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Two pump stalls can fall on a shorter grid with the real outages
	// (12 and 15 ms holds 5 s off two 45 ms outages on a loaded CI host
	// gave a 5 s schedule); such a run is repeated, twice at most, then
	// skipped with the reason. A wrong schedule without a stall still
	// fails.
	var (
		res    result.Result
		r      *probe.Report
		stalls int
	)
	for attempt := 1; ; attempt++ {
		res, r, stalls = netProbeThroughEmulator(t)
		s := r.Schedule
		if stalls == 0 || (s != nil && s.Period-p.Reconfig.Period >= -5*time.Millisecond && s.Period-p.Reconfig.Period <= 5*time.Millisecond) {
			break
		}
		if attempt == 3 {
			t.Skipf("schedule %+v with pump stalls in three runs (%d in the last): they cannot be told from outages", s, stalls)
		}
		t.Logf("attempt %d: schedule %+v with %d pump stalls: repeating", attempt, s, stalls)
	}
	f := res.Flows[0]
	t.Logf("engine %s, epoch %s: sent %d lost %d; %d outages %+v; schedule %+v; outage %v; frame %+v; min OWD %v",
		res.Engine, res.EpochUTC, f.SentPackets, f.LostPackets, len(r.Outages), r.Outages, r.Schedule, r.OutageLength, r.Frame, r.MinOWD)
	if res.Engine != "net" || res.Path.Direction != "downlink" || f.SentPackets != 32000 {
		t.Errorf("engine %q direction %q sent %d, want net, downlink, 32000", res.Engine, res.Path.Direction, f.SentPackets)
	}
	// Idle loss: the profile's 0.03 % random loss, and a few packets
	// in flight at an outage; far below 1 %.
	if f.LostPackets > 320 {
		t.Errorf("lost %d of %d", f.LostPackets, f.SentPackets)
	}
	s := r.Schedule
	if s == nil {
		t.Fatalf("no schedule among %d outages", len(r.Outages))
	}
	if d := s.Period - p.Reconfig.Period; d < -5*time.Millisecond || d > 5*time.Millisecond {
		t.Errorf("period %v, want %v ± 5 ms", s.Period, p.Reconfig.Period)
	}
	if got := s.MinuteSeconds(); len(got) != 4 || got[0] != 12 || got[3] != 57 {
		t.Errorf("boundaries at %v of the UTC minute, want [12 27 42 57]", got)
	}
	// Off the schedule: only what the pump's stalls explain (the shell's
	// summary line counts them; each stall over 10 ms holds packets like
	// an outage would).
	if s.OnGrid < 2 || s.Off > stalls {
		t.Errorf("%d outages on the schedule, %d off; want >= 2, and off ones only as many as the pump's %d stalls", s.OnGrid, s.Off, stalls)
	}
	if d := r.OutageLength - p.Downlink.Outage.Duration; d < -time.Millisecond || d > 2*p.TDMA.Frame+time.Millisecond {
		t.Errorf("outage %v, want %v + [0, two frames] (frames quantise both ends)", r.OutageLength, p.Downlink.Outage.Duration)
	}
	if r.Frame == nil {
		t.Error("no frame found")
	} else if d := r.Frame.Period - p.TDMA.Frame; d < -5*time.Microsecond || d > 5*time.Microsecond {
		t.Errorf("frame %v, want %v ± 5 µs", r.Frame.Period, p.TDMA.Frame)
	}
}

// netProbeThroughEmulator runs `leolab net probe` against `leolab net
// serve` through the live shell once and infers the link from the result;
// stalls is the number of pump stalls the shell reported.
func netProbeThroughEmulator(t *testing.T) (result.Result, *probe.Report, int) {
	t.Helper()
	self := os.Args[0]
	var out, errb bytes.Buffer
	c := newShellCmd()
	c.SetOut(&out)
	c.SetErr(&errb)
	if err := execCmd(t, c, "--profile", "starlink", "--server", self+" net serve",
		"--", self, "net", "probe", emu.ServerIP, "--duration", "32s", "--drain", "500ms", "--json"); err != nil {
		t.Fatalf("%v\nstderr: %s", err, errb.String())
	}
	var res result.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v in %q", err, out.String())
	}
	tr, err := probe.FromResult(&res, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err := probe.Infer(tr, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stalls := 0
	if m := regexp.MustCompile(`kept off its CPU (\d+) times`).FindStringSubmatch(errb.String()); m != nil {
		stalls, _ = strconv.Atoi(m[1])
	}
	return res, r, stalls
}

// natPath builds client ── NAT router ── server from three namespaces and
// two veth pairs; the router masquerades the client's private address
// (nftables), as the carrier-grade NAT in front of a Starlink terminal
// does. It returns the client's and server's namespaces and the server's
// address, and removes everything when the test ends. It skips without
// root, ip or nft.
func natPath(t *testing.T) (client, server, serverIP string) {
	t.Helper()
	if err := netns.Available(); err != nil {
		t.Skipf("skipping: %v", err)
	}
	if _, err := exec.LookPath("nft"); err != nil {
		t.Skip("skipping: nft not installed (apt-get install nftables)")
	}
	livetest.Lock(t)
	id := strconv.Itoa(os.Getpid() % 100000)
	client, server = "lnat-"+id+"-c", "lnat-"+id+"-s"
	router := "lnat-" + id + "-r"
	vc, vrc, vs, vrs := "lnc"+id, "lnrc"+id, "lns"+id, "lnrs"+id
	t.Cleanup(func() {
		for _, ns := range []string{client, router, server} {
			_ = exec.Command("ip", "netns", "del", ns).Run()
		}
	})
	sh := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	for _, ns := range []string{client, router, server} {
		sh("ip", "netns", "add", ns)
		sh("ip", "-n", ns, "link", "set", "lo", "up")
	}
	sh("ip", "link", "add", vc, "type", "veth", "peer", "name", vrc)
	sh("ip", "link", "set", vc, "netns", client)
	sh("ip", "link", "set", vrc, "netns", router)
	sh("ip", "link", "add", vs, "type", "veth", "peer", "name", vrs)
	sh("ip", "link", "set", vs, "netns", server)
	sh("ip", "link", "set", vrs, "netns", router)
	// RFC 1918 behind the NAT, RFC 5737 TEST-NET-3 beyond it.
	sh("ip", "-n", client, "addr", "add", "192.168.77.2/24", "dev", vc)
	sh("ip", "-n", client, "link", "set", vc, "up")
	sh("ip", "-n", client, "route", "add", "default", "via", "192.168.77.1")
	sh("ip", "-n", router, "addr", "add", "192.168.77.1/24", "dev", vrc)
	sh("ip", "-n", router, "addr", "add", "203.0.113.1/24", "dev", vrs)
	sh("ip", "-n", router, "link", "set", vrc, "up")
	sh("ip", "-n", router, "link", "set", vrs, "up")
	sh("ip", "-n", server, "addr", "add", "203.0.113.2/24", "dev", vs)
	sh("ip", "-n", server, "link", "set", vs, "up")
	sh("ip", "netns", "exec", router, "sysctl", "-qw", "net.ipv4.ip_forward=1")
	sh("ip", "netns", "exec", router, "nft", "add table ip nat; add chain ip nat post { type nat hook postrouting priority 100 ; }; add rule ip nat post oifname "+vrs+" masquerade")
	return client, server, "203.0.113.2"
}

// Both probe directions through a NAT: the server never learns the
// client's private address (it sees the router's), so the downlink works
// only if the client's hellos opened the mapping first.
func TestNetProbeThroughNAT(t *testing.T) {
	client, server, serverIP := natPath(t)
	t.Setenv(cliChildEnv, "1")
	self := os.Args[0]
	srv := exec.Command("ip", "netns", "exec", server, self, "net", "serve")
	var srvLog bytes.Buffer
	srv.Stderr = &srvLog
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait(); t.Logf("server log:\n%s", srvLog.String()) })
	for _, dir := range []string{"down", "up"} {
		out, err := exec.Command("ip", "netns", "exec", client, self, "net", "probe", serverIP,
			"--direction", dir, "--duration", "2s", "--drain", "300ms", "--json").Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("%s: %v: %s", dir, err, stderr)
		}
		var res result.Result
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		f := res.Flows[0]
		if f.SentPackets != 2000 || f.LostPackets != 0 || len(f.Packets) != 2000 {
			t.Errorf("%s: sent %d lost %d records %d, want 2000, 0, 2000", dir, f.SentPackets, f.LostPackets, len(f.Packets))
		}
	}
	if !strings.Contains(srvLog.String(), "203.0.113.1:") || strings.Contains(srvLog.String(), "192.168.77.2") {
		t.Errorf("the server should see only the NAT's address:\n%s", srvLog.String())
	}
}

// Bad flags: exit 2 naming the flag and what it takes.
func TestNetProbeBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--direction", "sideways"}, `--direction "sideways": want down or up`},
		{[]string{"--size", "20"}, "--size 20: want 44–1500 bytes"},
		{[]string{"--rate", "fast"}, "--rate:"},
		{[]string{"--duration", "2h"}, "duration 2h0m0s: want (0, 1h0m0s]"},
	} {
		code, _, stderr := runCLI(append([]string{"net", "probe", "127.0.0.1:1"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// netServer starts `leolab net serve` on a loopback port as a process and
// returns its address and its stderr lines as they come.
func netServer(t *testing.T, env []string, args ...string) (addr string, proc *exec.Cmd, lines <-chan string) {
	t.Helper()
	cmd := cliProcess(t, append([]string{"net", "serve", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(cmd.Env, env...)
	pr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	ch := make(chan string, 100)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	re := regexp.MustCompile(`listening on (127\.0\.0\.1:\d+)`)
	select {
	case l := <-ch:
		m := re.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("first line %q", l)
		}
		return m[1], cmd, ch
	case <-time.After(10 * time.Second):
		t.Fatal("no listening line")
	}
	return "", nil, nil
}

// A private server (LEOLAB_TOKEN) serves a client with the token (flag or
// environment) and refuses one without, exit 1 with the server's reason;
// SIGTERM ends its running probe within a second and says so; bad caps
// are bad input.
func TestNetServeTokenAndSIGTERM(t *testing.T) {
	addr, srv, lines := netServer(t, []string{tokenEnv + "=s3cret"})
	probeArgs := []string{"net", "probe", addr, "--duration", "300ms", "--drain", "100ms"}
	if code, _, stderr := runCLI(append(probeArgs, "--token", "wrong")...); code != 1 || !strings.Contains(stderr, "authentication failed: wrong token") {
		t.Errorf("wrong token: exit %d, %q", code, stderr)
	}
	t.Setenv(tokenEnv, "")
	if code, _, stderr := runCLI(probeArgs...); code != 1 || !strings.Contains(stderr, "this server requires a token") {
		t.Errorf("no token: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI(append(probeArgs, "--token", "s3cret")...); code != 0 {
		t.Errorf("right token: exit %d, %q", code, stderr)
	}
	t.Setenv(tokenEnv, "s3cret")
	done := make(chan int, 1)
	go func() {
		code, _, _ := runCLI("net", "probe", addr, "--duration", "10m")
		done <- code
	}()
	for l := range lines {
		if strings.Contains(l, "for 10m0s") {
			break
		}
	}
	time.Sleep(300 * time.Millisecond)
	began := time.Now()
	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var said []string
	for l := range lines {
		said = append(said, l)
	}
	err := srv.Wait()
	took := time.Since(began)
	t.Logf("server exited %v after SIGTERM (%v):\n%s", took, err, strings.Join(said, "\n"))
	if err != nil || took > 1500*time.Millisecond {
		t.Errorf("serve: %v after %v, want exit 0 within a second", err, took)
	}
	if s := strings.Join(said, "\n"); !strings.Contains(s, "shutting down: ending 1 sessions") || !strings.Contains(s, "stopped: all sessions ended") {
		t.Errorf("the server did not say it ended its session")
	}
	select {
	case code := <-done:
		if code != 1 {
			t.Errorf("the client of a stopped server: exit %d, want 1", code)
		}
	case <-time.After(5 * time.Second):
		t.Error("the client still runs 5 s after the server stopped")
	}
	for _, a := range [][]string{{"--max-sessions", "0"}, {"--max-line", "100"}, {"--max-trace", "-1"}} {
		if code, _, stderr := runCLI(append([]string{"net", "serve", "--listen", "127.0.0.1:0"}, a...)...); code != 2 || !strings.Contains(stderr, a[0]) {
			t.Errorf("%v: exit %d, %q; want 2 naming the flag", a, code, stderr)
		}
	}
}
