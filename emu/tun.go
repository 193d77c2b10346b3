package emu

import (
	"fmt"
	"net/netip"
	"os"
	"strconv"
	"strings"

	"github.com/leolab/leolab/emu/netns"
	"github.com/leolab/leolab/packet"
	"golang.org/x/sys/unix"
)

// TUN device settings.
const (
	// tunName is the device name inside each namespace; namespaces are
	// private, so every run can use the same name.
	tunName = "leo0"
	// tunTxQueueLen is the device's queue towards the pump, in packets. The
	// kernel's default for TUN (500, drivers/net/tun.c TUN_READQ_SIZE) drops
	// bursts of a few hundred packets when the pump is descheduled; 10000
	// packets is 120 ms at 1 Gbit/s.
	tunTxQueueLen = 10000
	// tunMTU is the devices' MTU: Ethernet's, as on the paths we model.
	tunMTU = packet.MTU
)

// openTUN creates a TUN device (IFF_TUN | IFF_NO_PI: bare IP packets, no
// offloads, so the kernel segments TSO bursts before the pump sees them) in
// the namespace ns, gives it addr/prefix, brings it up, and returns its
// non-blocking fd.
func openTUN(ns string, addr netip.Prefix) (int, error) {
	fd := -1
	err := netns.Do(ns, func() error {
		// No IPv6 inside: it would only add router solicitations to the link.
		if err := os.WriteFile("/proc/sys/net/ipv6/conf/default/disable_ipv6", []byte("1"), 0o644); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("disable ipv6: %w", err)
		}
		f, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("open /dev/net/tun: %w", err)
		}
		ifr, err := unix.NewIfreq(tunName)
		if err != nil {
			unix.Close(f)
			return err
		}
		ifr.SetUint16(unix.IFF_TUN | unix.IFF_NO_PI)
		if err := unix.IoctlIfreq(f, unix.TUNSETIFF, ifr); err != nil {
			unix.Close(f)
			return fmt.Errorf("TUNSETIFF %s: %w", tunName, err)
		}
		fd = f
		return nil
	})
	if err != nil {
		return -1, fmt.Errorf("tun in %s: %w", ns, err)
	}
	steps := [][]string{
		{"-n", ns, "link", "set", "dev", tunName, "mtu", strconv.Itoa(tunMTU), "txqueuelen", strconv.Itoa(tunTxQueueLen)},
		{"-n", ns, "addr", "add", addr.String(), "dev", tunName},
		{"-n", ns, "link", "set", "dev", tunName, "up"},
	}
	for _, s := range steps {
		if err := netns.IP(s...); err != nil {
			unix.Close(fd)
			return -1, fmt.Errorf("tun in %s: %w", ns, err)
		}
	}
	return fd, nil
}

// tunDrops reads the kernel's count of packets the TUN device in ns dropped
// on their way to the pump (tx_dropped: its queue to the reader was full).
func tunDrops(ns string) (int64, error) {
	var n int64
	err := netns.Do(ns, func() error {
		// /proc/thread-self/net follows the calling thread's namespace
		// (/sys would show the namespace it was mounted in).
		b, err := os.ReadFile("/proc/thread-self/net/dev")
		if err != nil {
			return err
		}
		n, err = parseTxDropped(string(b), tunName)
		return err
	})
	return n, err
}

// parseTxDropped extracts a device's transmit drops from /proc/net/dev
// ("name: 8 receive counters, then bytes packets errs drop ... transmitted").
func parseTxDropped(dev, name string) (int64, error) {
	for _, line := range strings.Split(dev, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(k) != name {
			continue
		}
		f := strings.Fields(v)
		if len(f) < 12 {
			return 0, fmt.Errorf("/proc/net/dev: short line for %s", name)
		}
		return strconv.ParseInt(f[11], 10, 64)
	}
	return 0, fmt.Errorf("/proc/net/dev: no device %s", name)
}
