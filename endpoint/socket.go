package endpoint

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"syscall"

	"github.com/leolab/leolab/emu/netns"
	"golang.org/x/sys/unix"
)

// Socket buffer sizes forced on the endpoints' sockets (SO_*BUFFORCE needs
// CAP_NET_ADMIN). UDP receivers need room for bursts released at line rate:
// 8 MiB is ~65 ms at 1 Gbit/s.
const udpBufBytes = 8 << 20

// listenUDP opens a UDP socket bound to addr inside namespace ns.
func listenUDP(ns string, addr netip.AddrPort) (*net.UDPConn, error) {
	var c *net.UDPConn
	err := netns.Do(ns, func() error {
		lc := net.ListenConfig{Control: forceBuffers}
		pc, err := lc.ListenPacket(context.Background(), "udp4", addr.String())
		if err != nil {
			return err
		}
		c = pc.(*net.UDPConn)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("udp listen %v in %s: %w", addr, ns, err)
	}
	return c, nil
}

// dialUDP opens a UDP socket in namespace ns connected to addr.
func dialUDP(ns string, addr netip.AddrPort) (*net.UDPConn, error) {
	var c *net.UDPConn
	err := netns.Do(ns, func() error {
		d := net.Dialer{Control: forceBuffers}
		conn, err := d.Dial("udp4", addr.String())
		if err != nil {
			return err
		}
		c = conn.(*net.UDPConn)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("udp dial %v in %s: %w", addr, ns, err)
	}
	return c, nil
}

func forceBuffers(_, _ string, rc syscall.RawConn) error {
	var serr error
	err := rc.Control(func(fd uintptr) {
		serr = forceBuffersFD(int(fd))
		if serr == nil {
			serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1)
		}
	})
	if err != nil {
		return err
	}
	return serr
}

// forceBuffersFD sets both socket buffers to udpBufBytes past the system
// limits (needs CAP_NET_ADMIN).
func forceBuffersFD(fd int) error {
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, udpBufBytes); err != nil {
		return err
	}
	return unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUFFORCE, udpBufBytes)
}

// listenTCP opens a TCP listener on addr inside namespace ns.
func listenTCP(ns string, addr netip.AddrPort) (*net.TCPListener, error) {
	var l *net.TCPListener
	err := netns.Do(ns, func() error {
		ln, err := net.Listen("tcp4", addr.String())
		if err != nil {
			return err
		}
		l = ln.(*net.TCPListener)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("tcp listen %v in %s: %w", addr, ns, err)
	}
	return l, nil
}

// dialTCP connects from namespace ns to addr with congestion control cca
// set on the socket before the SYN (TCP_CONGESTION, tcp(7)).
func dialTCP(ctx context.Context, ns string, addr netip.AddrPort, cca string) (*net.TCPConn, error) {
	var c *net.TCPConn
	err := netns.Do(ns, func() error {
		d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
			var serr error
			err := rc.Control(func(fd uintptr) {
				serr = unix.SetsockoptString(int(fd), unix.IPPROTO_TCP, unix.TCP_CONGESTION, cca)
			})
			if err != nil {
				return err
			}
			if serr != nil {
				return fmt.Errorf("TCP_CONGESTION %q: %w (see /proc/sys/net/ipv4/tcp_available_congestion_control)", cca, serr)
			}
			return nil
		}}
		conn, err := d.DialContext(ctx, "tcp4", addr.String())
		if err != nil {
			return err
		}
		c = conn.(*net.TCPConn)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("tcp dial %v from %s: %w", addr, ns, err)
	}
	return c, nil
}
