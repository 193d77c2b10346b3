package livetest

import (
	"os"
	"testing"

	"github.com/leolab/leolab/emu/netns"
)

// Need skips tb without what the live emulator needs (root, network
// namespaces, the TUN driver), then takes the machine-wide lock (Lock).
func Need(tb testing.TB) {
	tb.Helper()
	if err := netns.Available(); err != nil {
		tb.Skipf("skipping: %v", err)
	}
	if _, err := os.Stat("/dev/net/tun"); err != nil {
		tb.Skipf("skipping: no TUN driver: %v", err)
	}
	Lock(tb)
}
