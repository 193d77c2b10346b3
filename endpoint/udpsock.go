package endpoint

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/leolab/leolab/emu/netns"
	"golang.org/x/sys/unix"
)

// rawUDP is a non-blocking, connected UDP socket used through raw file
// descriptors by a driver that owns its OS thread (no netpoller round trip
// per datagram).
type rawUDP struct {
	fd  int
	pfd [1]unix.PollFd // reused by wait: no allocation per sleep
	ts  unix.Timespec
}

// udpPair creates the two ends of a transport flow: the sender's socket in
// namespace from, connected to addr, and the receiver's socket in namespace
// to, bound to addr and connected back to the sender's address.
func udpPair(from, to string, addr netip.AddrPort) (snd, rcv *rawUDP, err error) {
	to4 := sockaddr(addr)
	snd = &rawUDP{fd: -1}
	rcv = &rawUDP{fd: -1}
	var local unix.Sockaddr
	err = netns.Do(from, func() error {
		if snd.fd, err = newUDP(); err != nil {
			return err
		}
		// ACKs carry their kernel receive time (txLoop.readAcks).
		if err := unix.SetsockoptInt(snd.fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1); err != nil {
			return fmt.Errorf("SO_TIMESTAMPNS: %w", err)
		}
		if err := unix.Connect(snd.fd, to4); err != nil {
			return fmt.Errorf("connect %v: %w", addr, err)
		}
		local, err = unix.Getsockname(snd.fd)
		return err
	})
	if err != nil {
		snd.close()
		return nil, nil, fmt.Errorf("udp sender in %s: %w", from, err)
	}
	err = netns.Do(to, func() error {
		if rcv.fd, err = newUDP(); err != nil {
			return err
		}
		if err := unix.Bind(rcv.fd, to4); err != nil {
			return fmt.Errorf("bind %v: %w", addr, err)
		}
		return unix.Connect(rcv.fd, local)
	})
	if err != nil {
		snd.close()
		rcv.close()
		return nil, nil, fmt.Errorf("udp receiver in %s: %w", to, err)
	}
	return snd, rcv, nil
}

func sockaddr(a netip.AddrPort) *unix.SockaddrInet4 {
	return &unix.SockaddrInet4{Port: int(a.Port()), Addr: a.Addr().As4()}
}

func newUDP() (int, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("socket: %w", err)
	}
	for _, o := range []int{unix.SO_RCVBUFFORCE, unix.SO_SNDBUFFORCE} {
		if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, o, udpBufBytes); err != nil {
			unix.Close(fd)
			return -1, fmt.Errorf("socket buffers: %w", err)
		}
	}
	return fd, nil
}

func (u *rawUDP) close() {
	if u != nil && u.fd >= 0 {
		unix.Close(u.fd)
		u.fd = -1
	}
}

// recv reads one datagram without blocking; ok is false when none is
// queued.
func (u *rawUDP) recv(b []byte) (n int, ok bool) {
	n, _, err := unix.Recvfrom(u.fd, b, unix.MSG_DONTWAIT)
	return n, err == nil
}

// send writes one datagram without blocking and reports whether the kernel
// took it (a full socket buffer is a local drop, which the transport
// recovers like any loss).
func (u *rawUDP) send(b []byte) bool {
	_, err := unix.Write(u.fd, b)
	return err == nil
}

// wait blocks until a datagram is readable or d passes (d <= 0: poll);
// it reports whether one is.
func (u *rawUDP) wait(d time.Duration) bool {
	u.pfd[0] = unix.PollFd{Fd: int32(u.fd), Events: unix.POLLIN}
	u.ts = unix.NsecToTimespec(int64(max(d, 0)))
	n, err := unix.Ppoll(u.pfd[:], &u.ts, nil)
	return err == nil && n > 0
}
