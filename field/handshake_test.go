package field

import (
	"context"
	"encoding/binary"
	"net"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leolab/leolab/endpoint"
	"github.com/leolab/leolab/result"
	"golang.org/x/sys/unix"
)

// counter counts the datagrams and bytes (UDP payload) a socket receives
// until it is closed.
type counter struct {
	conn             *net.UDPConn
	datagrams, bytes atomic.Int64
	others           atomic.Int64 // datagrams that are not challenges
	done             chan struct{}
}

func listenCounter(t *testing.T, ip string) *counter {
	t.Helper()
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.ParseIP(ip)})
	if err != nil {
		t.Fatal(err)
	}
	c := &counter{conn: conn, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		buf := make([]byte, 2048)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				return
			}
			c.datagrams.Add(1)
			c.bytes.Add(int64(n))
			if m, _, ok := parseDatagram(buf[:n]); !ok || m != challengeMagic {
				c.others.Add(1)
			}
		}
	}()
	t.Cleanup(func() { conn.Close(); <-c.done })
	return c
}

func (c *counter) addr() netip.AddrPort { return c.conn.LocalAddr().(*net.UDPAddr).AddrPort() }

// spoofer sends UDP datagrams with any IPv4 source through a raw socket
// (root only).
type spoofer struct{ fd int }

func newSpoofer(t *testing.T) *spoofer {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipping: a forged source address needs a raw socket (root)")
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_RAW)
	if err != nil {
		t.Skipf("skipping: raw socket: %v", err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return &spoofer{fd: fd}
}

// send writes payload from src to dst (loopback only, by construction of
// the tests). IPPROTO_RAW implies IP_HDRINCL; the kernel fills in the IP
// checksum (raw(7)); a zero UDP checksum means none (RFC 768).
func (s *spoofer) send(t *testing.T, src, dst netip.AddrPort, payload []byte) {
	t.Helper()
	if !dst.Addr().IsLoopback() {
		t.Fatalf("leolab BUG: spoofing to %v, not loopback", dst)
	}
	b := make([]byte, 28+len(payload))
	b[0], b[8], b[9] = 0x45, 64, unix.IPPROTO_UDP
	binary.BigEndian.PutUint16(b[2:], uint16(len(b)))
	s4, d4 := src.Addr().As4(), dst.Addr().As4()
	copy(b[12:16], s4[:])
	copy(b[16:20], d4[:])
	binary.BigEndian.PutUint16(b[20:], src.Port())
	binary.BigEndian.PutUint16(b[22:], dst.Port())
	binary.BigEndian.PutUint16(b[24:], uint16(8+len(payload)))
	copy(b[28:], payload)
	if err := unix.Sendto(s.fd, b, 0, &unix.SockaddrInet4{Addr: d4}); err != nil {
		t.Fatalf("raw send: %v", err)
	}
}

// openSession asks addr for a probe over a bare control connection and
// returns its UDP port and session token (what an attacker who opened
// its own session knows).
func openSession(t *testing.T, addr string, req request) (*control, int, token) {
	t.Helper()
	c, err := net.Dial("tcp4", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctl := newControl(c)
	if err := ctl.send(req); err != nil {
		t.Fatal(err)
	}
	var acc accept
	if err := ctl.recv(&acc, 5*time.Second, replyLine); err != nil || acc.Error != "" {
		t.Fatalf("accept: %+v %v", acc, err)
	}
	tok, err := parseToken(acc.Session)
	if err != nil {
		t.Fatal(err)
	}
	return ctl, acc.UDPPort, tok
}

// Acceptance 1. An attacker opens its own 100 Mbit/s downlink session and
// forges its hellos (with the session's token) from a victim's address,
// 127.0.0.9: the victim receives one 12-byte challenge per 12-byte hello
// and never the flow. Hellos without the token, and echoes with a guessed
// challenge, from the victim's address get nothing. Meanwhile a second
// attacker who learnt the legitimate client's UDP port sprays hellos,
// echoes and CBR-shaped packets at it: it receives nothing, and the
// client's probes (down and up) complete whole and unpolluted.
func TestForgedHello(t *testing.T) {
	sp := newSpoofer(t)
	addr, _ := startServer(t, nil)
	server := netip.MustParseAddrPort(addr)
	victim := listenCounter(t, "127.0.0.9")

	atk, port, tok := openSession(t, addr, request{Version: version, Direction: Down, RateBps: 100e6, Size: 1000,
		DurationNs: int64(time.Minute)})
	udpDst := netip.AddrPortFrom(server.Addr(), uint16(port))
	var helloBytes int
	for i := range 20 {
		h := datagram(helloMagic, tok)
		sp.send(t, victim.addr(), udpDst, h) // forged, with the token
		helloBytes += len(h)
		sp.send(t, victim.addr(), udpDst, datagram(helloMagic, token{byte(i)}))        // forged, no token
		sp.send(t, victim.addr(), udpDst, datagram(echoMagic, [8]byte{byte(i), 1, 2})) // a guessed challenge
		time.Sleep(10 * time.Millisecond)
	}

	// A real attacker then tells the server its receiver is ready.
	if err := atk.send(ready{}); err != nil {
		t.Fatal(err)
	}

	// The legitimate client (Probe's steps after the dial), with a
	// guesser spraying its port from before the client's first hello.
	guesser := listenCounter(t, "127.0.0.1")
	for _, dir := range []Direction{Down, Up} {
		req := request{Version: version, Direction: dir, RateBps: 8e6, Size: 1000,
			DurationNs: int64(time.Second), DrainNs: int64(200 * time.Millisecond)}
		ctl, port, tok := openSession(t, addr, req)
		dst := netip.AddrPortFrom(server.Addr(), uint16(port))
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Add(1)
		var injected atomic.Int64
		go func() { defer wg.Done(); injected.Store(spray(ctx, guesser.conn, dst)) }()
		time.Sleep(200 * time.Millisecond)
		res, err := legitProbe(ctl, dst, tok, &req)
		cancel()
		wg.Wait()
		if err != nil {
			t.Fatalf("%s: legitimate probe: %v", dir, err)
		}
		f := res.Flows[0]
		if f.SentPackets != 1000 || f.LostPackets != 0 || len(f.Packets) != 1000 {
			t.Errorf("%s: sent %d lost %d records %d, want 1000, 0, 1000", dir, f.SentPackets, f.LostPackets, len(f.Packets))
		}
		for k, p := range f.Packets {
			if p.OWDMs <= 0 || p.OWDMs > 1000 { // an injected packet carries a 1970 stamp
				t.Fatalf("%s: packet %d: one-way delay %.3f ms: injected?", dir, k, p.OWDMs)
			}
		}
		t.Logf("%s: guesser sent %d datagrams to the client's port", dir, injected.Load())
	}
	time.Sleep(100 * time.Millisecond) // anything still in flight to the victim
	vb, vd := victim.bytes.Load(), victim.datagrams.Load()
	t.Logf("victim: %d datagrams, %d bytes, for %d bytes of forged hellos with the token; guesser received %d bytes",
		vd, vb, helloBytes, guesser.bytes.Load())
	if vb > int64(helloBytes) || victim.others.Load() != 0 {
		t.Errorf("victim received %d bytes (%d not challenges), more than the %d of the hellos that caused them", vb, victim.others.Load(), helloBytes)
	}
	if vd == 0 {
		t.Errorf("victim received no challenge: the forged hellos did not reach the server, so the test proves nothing")
	}
	if g := guesser.bytes.Load(); g != 0 {
		t.Errorf("the guesser received %d bytes", g)
	}
}

// legitProbe is Probe after its dial and request: the client's socket,
// its proof of address, the probe.
func legitProbe(ctl *control, dst netip.AddrPort, tok token, req *request) (*result.Result, error) {
	udp, err := net.DialUDP("udp4", nil, net.UDPAddrFromAddrPort(dst))
	if err != nil {
		return nil, err
	}
	defer udp.Close()
	if err := endpoint.PrepareUDP(udp); err != nil {
		return nil, err
	}
	if err := openPath(ctl, udp, tok); err != nil {
		return nil, err
	}
	if req.Direction == Up {
		return probeUp(context.Background(), ctl, udp, req)
	}
	return probeDown(ctl, udp, req)
}

// spray sends to dst, until ctx ends, hellos with a wrong token, echoes
// with a guessed challenge and CBR packets stamped in 1970, and returns
// how many datagrams it sent.
func spray(ctx context.Context, conn *net.UDPConn, dst netip.AddrPort) int64 {
	to := net.UDPAddrFromAddrPort(dst)
	pkt := make([]byte, 1000-28)
	var sent int64
	for k := uint64(0); ctx.Err() == nil; k++ {
		binary.BigEndian.PutUint64(pkt[0:8], k%1000)
		binary.BigEndian.PutUint64(pkt[8:16], 1)
		for _, b := range [][]byte{datagram(helloMagic, token{1}), datagram(echoMagic, [8]byte{byte(k)}), pkt} {
			if _, err := conn.WriteToUDP(b, to); err == nil {
				sent++
			}
		}
		time.Sleep(time.Millisecond)
	}
	return sent
}
