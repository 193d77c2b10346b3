package field

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Accept errors back off and are retried: with the process out of
// descriptors (RLIMIT_NOFILE lowered to what is open, plus the client's
// one), Accept fails with EMFILE; the server keeps trying, and once the
// limit is back it takes the waiting connection and serves probes.
func TestServeEMFILE(t *testing.T) {
	addr, lg := startServer(t, nil)
	var old unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	restore := sync.OnceFunc(func() {
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &old); err != nil {
			t.Errorf("restoring RLIMIT_NOFILE: %v", err)
		}
	})
	t.Cleanup(restore)
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	top := 0
	for _, e := range ents {
		var fd int
		if _, err := fmt.Sscan(e.Name(), &fd); err == nil {
			top = max(top, fd)
		}
	}
	low := old
	low.Cur = uint64(top + 1)
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	// Fill every hole below the limit, then free one for the client.
	var fill []int
	for {
		fd, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			break
		}
		fill = append(fill, fd)
	}
	if len(fill) > 0 {
		unix.Close(fill[len(fill)-1])
		fill = fill[:len(fill)-1]
	}
	c, derr := net.Dial("tcp4", addr)
	waitFor(t, "Accept to fail twice", func() bool { return lg.count("too many open files") >= 2 })
	restore()
	for _, fd := range fill {
		unix.Close(fd)
	}
	if derr != nil {
		t.Fatalf("dial with the last descriptor: %v", derr)
	}
	defer c.Close()
	t.Logf("accept errors logged: %d", lg.count("too many open files"))
	ctl := newControl(c)
	if err := ctl.send(request{Version: version, Direction: Up, RateBps: 8e6, Size: 1000, DurationNs: int64(time.Second)}); err != nil {
		t.Fatal(err)
	}
	var acc accept
	if err := ctl.recv(&acc, 5*time.Second, replyLine); err != nil || acc.UDPPort == 0 {
		t.Fatalf("the connection that waited: %+v %v", acc, err)
	}
	c.Close()
	if _, err := Probe(context.Background(), probeSpec(addr, 300*time.Millisecond)); err != nil {
		t.Fatalf("after EMFILE: %v", err)
	}
}

// Stopping the server (SIGTERM in the CLI) ends every session within a
// second, each client told why, and says so in the log.
func TestServeShutdown(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lg := &testLog{}
	s := &Server{Log: lg.add}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	addr := ln.Addr().String()
	errs := make(chan error, 3)
	for _, dir := range []Direction{Down, Up} {
		spec := probeSpec(addr, 10*time.Minute)
		spec.Direction = dir
		go func() { _, err := Probe(context.Background(), spec); errs <- err }()
	}
	hold(t, addr, "127.0.0.1") // one still in its handshake
	waitFor(t, "three sessions", func() bool { return lg.count("probe on UDP port") == 3 })
	time.Sleep(300 * time.Millisecond)
	began := time.Now()
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	t.Logf("server log:\n%s", lg)
	if took > time.Second {
		t.Errorf("the server took %v to stop", took)
	}
	if !lg.said("shutting down: ending 3 sessions") || !lg.said("stopped: all sessions ended") {
		t.Errorf("the log does not say it ended the sessions")
	}
	for range 2 {
		select {
		case err := <-errs:
			if err == nil || !strings.Contains(err.Error(), "server shutting down") {
				t.Errorf("client: %v, want the server's notice", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a client still waits 5 s after the server stopped")
		}
	}
}
