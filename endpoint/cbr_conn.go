package endpoint

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"github.com/leolab/leolab/result"
	"golang.org/x/sys/unix"
)

// SendCBR sends flow c on conn, a connected UDP socket, on RunCBR's
// schedule (packet k due at epoch + Start + k·Size·8/Rate, stamped with
// CLOCK_REALTIME at the write) and returns the sender's figures: Sent and
// SendLate. The field tools use it on their own sockets; c.From, c.To and
// c.Addr are ignored.
func SendCBR(ctx context.Context, conn *net.UDPConn, epoch time.Time, c CBR) (*CBRReport, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	rep := &CBRReport{OWD: NewHist(0), SendLate: NewHist(0)}
	return rep, c.send(ctx, conn, epoch, rep)
}

// ReceiveCBR receives flow c on conn (prepared with PrepareUDP) until stop
// is set or epoch + Start + Duration + Drain passes, and returns the
// receiver's figures, its result.Flow (without the sender's count) and,
// when c.Trace is set, every packet's times relative to epoch.
func ReceiveCBR(conn *net.UDPConn, epoch time.Time, c CBR, stop *atomic.Bool) (*CBRReport, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	rep := &CBRReport{OWD: NewHist(0), SendLate: NewHist(0)}
	series, err := c.receive(conn, epoch, stop, rep)
	c.summarise(rep, series)
	return rep, err
}

// PrepareUDP readies a socket for SendCBR and ReceiveCBR without
// privileges: kernel receive timestamps (SO_TIMESTAMPNS) and socket
// buffers of udpBufBytes, forced past the system limits when the process
// may (CAP_NET_ADMIN), else as large as the limits allow.
func PrepareUDP(conn *net.UDPConn) error {
	rc, err := conn.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	err = rc.Control(func(fd uintptr) {
		if e := forceBuffersFD(int(fd)); e != nil {
			_ = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUF, udpBufBytes)
			_ = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_SNDBUF, udpBufBytes)
		}
		serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1)
	})
	if err != nil {
		return err
	}
	if serr != nil {
		return fmt.Errorf("SO_TIMESTAMPNS: %w", serr)
	}
	return nil
}

// ConnectUDP connects conn (unconnected, e.g. one that learnt its peer
// from a datagram) to peer, so SendCBR's sendmmsg needs no addresses.
func ConnectUDP(conn *net.UDPConn, peer *net.UDPAddr) error {
	rc, err := conn.SyscallConn()
	if err != nil {
		return err
	}
	ip4 := peer.IP.To4()
	if ip4 == nil {
		return fmt.Errorf("connect %v: IPv4 only", peer)
	}
	sa := &unix.SockaddrInet4{Port: peer.Port}
	copy(sa.Addr[:], ip4)
	var cerr error
	if err := rc.Control(func(fd uintptr) { cerr = unix.Connect(int(fd), sa) }); err != nil {
		return err
	}
	if cerr != nil {
		return fmt.Errorf("connect %v: %w", peer, cerr)
	}
	return nil
}

// ProbeRecords turns a traced CBR flow into the result's per-packet
// records in sending order: one-way delay for received packets, -1 for
// lost ones, whose send time is their schedule's (start + k·gap). shift is
// added to every traced time (to move it onto another epoch).
func ProbeRecords(rep *CBRReport, sent int64, start, gap, shift time.Duration) []result.ProbePacket {
	if rep.Trace == nil || sent <= 0 {
		return nil
	}
	out := make([]result.ProbePacket, sent)
	for k := range out {
		out[k] = result.ProbePacket{Seq: uint64(k), SentS: (start + time.Duration(k)*gap).Seconds(), OWDMs: -1}
	}
	for _, p := range rep.Trace {
		if p.Seq >= 0 && p.Seq < int64(len(out)) {
			out[p.Seq].SentS = (p.Sent + shift).Seconds()
			out[p.Seq].OWDMs = float64(p.Recv-p.Sent) / float64(time.Millisecond)
		}
	}
	return out
}
