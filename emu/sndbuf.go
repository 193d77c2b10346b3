package emu

import (
	"fmt"
	"os"
	"strings"

	"github.com/leolab/leolab/emu/netns"
	"github.com/leolab/leolab/transport"
)

// tcpWmem is the per-namespace sysctl whose third field bounds the send
// buffer's autotuning (tcp(7); net.ipv4.tcp_wmem is per network namespace
// since Linux 4.15, and a new namespace copies the host's values).
const tcpWmem = "/proc/sys/net/ipv4/tcp_wmem"

// kernelSndBuf is the send buffer a kernel flow runs with.
func (f Flow) kernelSndBuf() int {
	if f.SndBuf > 0 {
		return f.SndBuf
	}
	return transport.DefaultSndBuf
}

// sender is the namespace a flow sends from.
func (f Flow) sender(e *Emulator) string {
	if f.Direction == Uplink {
		return e.Client
	}
	return e.Server
}

// checkSendBuffers refuses kernel flows that send from one namespace (one
// direction) with different send buffers: the kernel's limit is per
// namespace.
func checkSendBuffers(flows []Flow) error {
	first := map[bool]int{} // uplink? → first kernel flow of that direction
	for i, f := range flows {
		if f.Kind != KindTCP {
			continue
		}
		j, ok := first[f.Direction == Uplink]
		if !ok {
			first[f.Direction == Uplink] = i
			continue
		}
		if a, b := flows[j].kernelSndBuf(), f.kernelSndBuf(); a != b {
			return fmt.Errorf("emu run: flow %d: send buffer %d bytes, but kernel flow %d of the same direction has %d: kernel flows share their namespace's tcp_wmem (give them one sndbuf)", i, b, j, a)
		}
	}
	return nil
}

// setSendBuffers gives each namespace that kernel flows send from their
// send buffer as tcp_wmem's maximum, so kernel TCP and the simulator's
// transport run with the same buffer (the host's default, often 4 MiB,
// would otherwise decide). checkSendBuffers made them agree per namespace.
func setSendBuffers(e *Emulator, flows []Flow) error {
	done := map[string]bool{}
	for _, f := range flows {
		ns := f.sender(e)
		if f.Kind != KindTCP || done[ns] {
			continue
		}
		done[ns] = true
		if err := netns.Do(ns, func() error { return setWmemMax(f.kernelSndBuf()) }); err != nil {
			return fmt.Errorf("emu: send buffer in %s: %w", ns, err)
		}
	}
	return nil
}

// setWmemMax rewrites the maximum of tcp_wmem in the current namespace,
// keeping its minimum and default.
func setWmemMax(limit int) error {
	b, err := os.ReadFile(tcpWmem)
	if err != nil {
		return err
	}
	f := strings.Fields(string(b))
	if len(f) != 3 {
		return fmt.Errorf("%s: %q: want three numbers", tcpWmem, b)
	}
	return os.WriteFile(tcpWmem, []byte(fmt.Sprintf("%s %s %d", f[0], f[1], limit)), 0o644)
}
