package field

import (
	"context"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"
)

// probeSpec is a short downlink probe at the default rate.
func probeSpec(addr string, d time.Duration) Spec {
	return Spec{Server: addr, Direction: Down, RateBps: 8e6, Size: 1000, Duration: d, Drain: 100 * time.Millisecond}
}

// wantRefused runs spec and checks it is refused with a message
// containing want.
func wantRefused(t *testing.T, spec Spec, want string) {
	t.Helper()
	_, err := Probe(context.Background(), spec)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("probe: %v, want a refusal saying %q", err, want)
	}
	t.Logf("refused: %v", err)
}

// hold opens a session that never proves its address (it holds its slot
// until closed) from the local address from.
func hold(t *testing.T, addr, from string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp4", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctl := newControl(c)
	if err := ctl.send(request{Version: version, Direction: Down, RateBps: 8e6, Size: 1000, DurationNs: int64(time.Second)}); err != nil {
		t.Fatal(err)
	}
	var acc accept
	if err := ctl.recv(&acc, 5*time.Second, replyLine); err != nil || acc.Error != "" {
		t.Fatalf("hold: %+v %v", acc, err)
	}
	return c
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Sessions in total and per address: over a cap a client is told which
// and by what flag; a session whose client leaves mid-handshake frees
// its slot at once, and the server goes on serving.
func TestProbeSessionCaps(t *testing.T) {
	addr, lg := startServer(t, &Server{Limits: Limits{Sessions: 2, SessionsPerIP: 1}})
	a := hold(t, addr, "127.0.0.1")
	wantRefused(t, probeSpec(addr, time.Second), "cap per address (--max-sessions-per-ip)")
	b := hold(t, addr, "127.0.0.2")
	// 127.0.0.3 has no session, but the server has its two.
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.3")}}
	c, err := d.Dial("tcp4", addr)
	if err != nil {
		t.Fatal(err)
	}
	ctl := newControl(c)
	_ = ctl.send(request{Version: version, Direction: Up, RateBps: 8e6, Size: 1000, DurationNs: int64(time.Second)})
	var acc accept
	if err := ctl.recv(&acc, 5*time.Second, replyLine); err != nil || !strings.Contains(acc.Error, "server busy: 2 probes running, its cap (--max-sessions)") {
		t.Fatalf("third session: %+v %v", acc, err)
	}
	c.Close()
	a.Close()
	b.Close()
	waitFor(t, "the held sessions to end", func() bool { return lg.count("client gone (or out of turn) during the handshake") == 2 })
	if _, err := Probe(context.Background(), probeSpec(addr, 500*time.Millisecond)); err != nil {
		t.Fatalf("after the caps: %v", err)
	}
}

// Bytes per address per hour: a request is charged its volume when
// admitted and what it moved when done; over the cap it is refused.
func TestProbeBytesCap(t *testing.T) {
	addr, _ := startServer(t, &Server{Limits: Limits{BytesPerIPHour: 1_500_000}})
	if _, err := Probe(context.Background(), probeSpec(addr, time.Second)); err != nil { // 1 MB
		t.Fatal(err)
	}
	wantRefused(t, probeSpec(addr, time.Second), "over the server's cap of 1500000 per address per hour (--max-bytes-per-ip)")
	if _, err := Probe(context.Background(), probeSpec(addr, 300*time.Millisecond)); err != nil { // 0.3 MB still fits
		t.Fatalf("a probe within the rest of the budget: %v", err)
	}
}

// Trace size: an uplink whose trace would exceed the cap is refused.
func TestProbeTraceCap(t *testing.T) {
	addr, _ := startServer(t, &Server{Limits: Limits{TracePackets: 500}})
	spec := probeSpec(addr, time.Second)
	spec.Direction = Up
	wantRefused(t, spec, "this server keeps traces of at most 500 (its --max-trace)")
	spec.Duration = 400 * time.Millisecond
	if _, err := Probe(context.Background(), spec); err != nil {
		t.Fatalf("a trace within the cap: %v", err)
	}
}

// Line length: a 600 MB request line is refused after the server's 4 kB
// limit, with a message, and the server's memory does not grow with it.
func TestProbeLongLine(t *testing.T) {
	addr, _ := startServer(t, nil)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c, err := net.Dial("tcp4", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	written := make(chan int64, 1)
	go func() {
		chunk := []byte(`{"version":2,"direction":"` + strings.Repeat("x", 1<<20-30))
		var n int64
		for n < 600<<20 {
			k, err := c.Write(chunk)
			n += int64(k)
			if err != nil {
				break
			}
			chunk = []byte(strings.Repeat("x", 1<<20))[:len(chunk)]
		}
		written <- n
	}()
	ctl := newControl(c)
	var acc accept
	if err := ctl.recv(&acc, 10*time.Second, replyLine); err != nil || !strings.Contains(acc.Error, "request line over 4096 bytes (the server's --max-line)") {
		t.Fatalf("long line: %+v %v", acc, err)
	}
	n := <-written
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapInuse) - int64(before.HeapInuse)
	t.Logf("client wrote %d MB before the server closed; heap in use grew %d kB", n>>20, grew>>10)
	if grew > 32<<20 {
		t.Errorf("heap grew %d MB reading one line", grew>>20)
	}
	if _, err := Probe(context.Background(), probeSpec(addr, 300*time.Millisecond)); err != nil {
		t.Fatalf("after the long line: %v", err)
	}
}
