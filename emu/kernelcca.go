package emu

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// CheckKernelCCA reports whether the kernel runs congestion control name
// for a TCP socket, by setting it on a throwaway socket in the calling
// namespace: the same setsockopt a flow's dial makes (which loads a module
// such as tcp_bbr on demand), done before a run builds namespaces and TUN
// devices only to fail at its first connection.
func CheckKernelCCA(name string) error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("congestion control %q: cannot open a socket to check it: %w", name, err)
	}
	defer unix.Close(fd)
	if err := unix.SetsockoptString(fd, unix.IPPROTO_TCP, unix.TCP_CONGESTION, name); err != nil {
		return fmt.Errorf("congestion control %q: the kernel refuses it (%v; available: %s)", name, err, availableCCAs())
	}
	return nil
}

// availableCCAs is the kernel's list of loaded congestion controls, for
// the error message.
func availableCCAs() string {
	b, err := os.ReadFile("/proc/sys/net/ipv4/tcp_available_congestion_control")
	if err != nil {
		return "see /proc/sys/net/ipv4/tcp_available_congestion_control"
	}
	return strings.Join(strings.Fields(string(b)), ", ")
}

// checkKernelCCAs checks every kernel TCP flow's congestion control, once
// per name.
func checkKernelCCAs(flows []Flow) error {
	seen := map[string]bool{}
	for _, f := range flows {
		if f.Kind != KindTCP || seen[f.CCA] {
			continue
		}
		seen[f.CCA] = true
		if err := CheckKernelCCA(f.CCA); err != nil {
			return err
		}
	}
	return nil
}
