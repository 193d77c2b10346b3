// Package irtttest runs Debian's irtt (server and client) over loopback to
// make real irtt captures for tests. Tests skip with the reason when irtt
// is not installed (apt-get install -y irtt).
package irtttest

import (
	"bufio"
	"context"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Capture runs an irtt server on a free loopback port and a client against
// it (send interval, duration; name's extension picks irtt's gzip:
// .json plain, .json.gz gzipped) and returns the client's output file in
// a temporary directory.
func Capture(t testing.TB, name string, interval, duration time.Duration) string {
	t.Helper()
	irtt, err := exec.LookPath("irtt")
	if err != nil {
		t.Skipf("irtt not installed (apt-get install -y irtt): %v", err)
	}
	addr := freeUDP(t)
	ctx, cancel := context.WithCancel(context.Background())
	srv := exec.CommandContext(ctx, irtt, "server", "-b", addr)
	pr, pw := io.Pipe()
	srv.Stdout, srv.Stderr = pw, pw
	if err := srv.Start(); err != nil {
		cancel()
		t.Fatalf("irtt server: %v", err)
	}
	defer func() {
		cancel()
		_ = srv.Wait()
		pw.Close()
	}()
	// The server says when it listens ("[ListenerStart] starting IPv4
	// listener on ADDR"); a client sent before gets ICMP port unreachable
	// and gives up.
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pr)
		started := false
		for sc.Scan() {
			if !started && strings.Contains(sc.Text(), "listener on") {
				close(ready)
				started = true
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(serverStart):
		t.Fatalf("irtt server on %s did not start within %v", addr, serverStart)
	}
	out := filepath.Join(t.TempDir(), name)
	cl := exec.Command(irtt, "client", "-i", interval.String(), "-d", duration.String(), "-Q", "-o", out, addr)
	if b, err := cl.CombinedOutput(); err != nil {
		t.Fatalf("irtt client: %v: %s", err, b)
	}
	return out
}

// serverStart bounds the wait for the server's listener (it starts in ms).
const serverStart = 10 * time.Second

// freeUDP returns a loopback UDP address no socket is bound to now.
func freeUDP(t testing.TB) string {
	t.Helper()
	c, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := c.LocalAddr().String()
	c.Close()
	return addr
}
