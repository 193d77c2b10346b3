package field

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// A fake server that claims 10^15 packets sent: the client refuses the
// count (it used to size its records by it: makeslice panic) and names it.
func TestProbeFakeServerCount(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	udp, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		ctl := newControl(c)
		var req request
		if ctl.recv(&req, 5*time.Second, DefaultMaxLine) != nil {
			return
		}
		_ = ctl.send(accept{UDPPort: udp.LocalAddr().(*net.UDPAddr).Port, Session: newToken().String()})
		_ = ctl.send(ready{})
		var rd ready
		_ = ctl.recv(&rd, 5*time.Second, DefaultMaxLine)
		_ = ctl.send(sentMsg{Sent: 1e15, EpochUnixNs: time.Now().UnixNano()})
		_ = ctl.recv(&rd, 5*time.Second, DefaultMaxLine) // until the client hangs up
	}()
	_, err = Probe(context.Background(), probeSpec(ln.Addr().String(), time.Second))
	if err == nil || !strings.Contains(err.Error(), "server reports 1000000000000000 packets sent; this probe has at most 1001") {
		t.Fatalf("fake count: %v", err)
	}
}
