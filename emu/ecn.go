package emu

import (
	"fmt"
	"os"

	"github.com/leolab/leolab/emu/netns"
)

// tcpECN is the per-namespace sysctl that decides whether kernel TCP
// negotiates ECN (ip-sysctl.rst: 0 never, 1 request it on outgoing
// connections and accept it on incoming ones, 2 — the default of a new
// namespace — only accept it). With 2 on both ends no connection uses
// ECN, its packets are not ECN-capable (RFC 3168 §6.1.1) and a queue with
// ecn: true can only drop them.
const tcpECN = "/proc/sys/net/ipv4/tcp_ecn"

// enableECN sets tcp_ecn = 1 in the client and the server namespace, so
// kernel flows in either direction request and accept ECN.
func enableECN(e *Emulator) error {
	for _, ns := range []string{e.Client, e.Server} {
		if err := netns.Do(ns, func() error { return os.WriteFile(tcpECN, []byte("1"), 0o644) }); err != nil {
			return fmt.Errorf("emu: ECN in %s: %w", ns, err)
		}
	}
	return nil
}
