package endpoint

import (
	"testing"
	"time"

	"github.com/leolab/leolab/packet"
	"golang.org/x/sys/unix"
)

// loopPair returns two connected non-blocking UDP sockets on the loopback
// of the current namespace; rx has SO_TIMESTAMPNS.
func loopPair(tb testing.TB) (tx, rx int) {
	tb.Helper()
	open := func() int {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { unix.Close(fd) })
		if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
			tb.Fatal(err)
		}
		return fd
	}
	tx, rx = open(), open()
	if err := unix.SetsockoptInt(rx, unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1); err != nil {
		tb.Fatal(err)
	}
	ta, _ := unix.Getsockname(tx)
	ra, _ := unix.Getsockname(rx)
	if err := unix.Connect(tx, ra); err != nil {
		tb.Fatal(err)
	}
	if err := unix.Connect(rx, ta); err != nil {
		tb.Fatal(err)
	}
	return tx, rx
}

// TestBatchSendRawLengths: each datagram of a sendmmsg batch keeps its own
// length, and recvmmsg returns them in order with a kernel timestamp taken
// between the send and the receive.
func TestBatchSendRawLengths(t *testing.T) {
	tx, rx := loopPair(t)
	b := newBatch(4, packet.MTU)
	lens := []int{wireData, 700, packet.MTU - udpIPHeaders}
	for i, n := range lens {
		buf := b.next()
		buf[0] = byte(i)
		b.setLen(n)
	}
	before := time.Now().UnixNano()
	if refused := b.sendRaw(tx); refused != 0 {
		t.Fatalf("%d datagrams refused on loopback", refused)
	}
	rb := newRBatch(8, packet.MTU, oobSize)
	n := rb.recv(rx)
	after := time.Now().UnixNano()
	if n != len(lens) {
		t.Fatalf("received %d datagrams, want %d", n, len(lens))
	}
	for i := range n {
		data, oob := rb.msg(i)
		if len(data) != lens[i] || data[0] != byte(i) {
			t.Errorf("datagram %d: %d bytes, tag %d; want %d bytes, tag %d", i, len(data), data[0], lens[i], i)
		}
		ts, ok := rxTimestamp(oob)
		if !ok || ts < before || ts > after {
			t.Errorf("datagram %d: kernel timestamp %d (ok %v) outside [%d, %d]", i, ts, ok, before, after)
		}
	}
}

// TestBatchSendRawRefused: a batch the kernel will not take (here: an
// unconnected socket, EDESTADDRREQ) is counted as refused, without
// blocking or retrying.
func TestBatchSendRawRefused(t *testing.T) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	b := newBatch(8, packet.MTU)
	for range 5 {
		b.next()
		b.setLen(wireData)
	}
	if refused := b.sendRaw(fd); refused != 5 {
		t.Errorf("refused %d of 5 datagrams on an unconnected socket, want 5", refused)
	}
}

// BenchmarkBatchSendRaw: one TSO burst (45 full segments) encoded and sent
// with one sendmmsg(2) on loopback, read back; allocation-free.
func BenchmarkBatchSendRaw(b *testing.B) {
	tx, rx := loopPair(b)
	out := newBatch(txBatch, packet.MTU)
	rb := newRBatch(txBatch, packet.MTU, oobSize)
	p := packet.Packet{Kind: packet.Data, Len: packet.MSS, Size: packet.MTU}
	const burst = 45 // 64 KiB / MSS (transport gsoMaxBytes)
	b.ReportAllocs()
	for b.Loop() {
		out.reset()
		for i := range burst {
			p.Seq = uint64(i * packet.MSS)
			out.setLen(len(encode(out.next(), &p)))
		}
		if out.sendRaw(tx) != 0 {
			b.Fatal("refused")
		}
		for got := 0; got < burst; {
			got += rb.recv(rx)
		}
	}
}
