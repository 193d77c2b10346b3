package main

import (
	"time"

	"github.com/spf13/cobra"
)

// Defaults of a fixed link given by flags (sim, emu, shell).
const (
	// defaultRate and defaultRTT are the fixed link of DESIGN.md ("A fixed
	// link for controlled studies": 100Mbps, 50ms).
	defaultRate = "100Mbps"
	defaultRTT  = 50 * time.Millisecond
	// bdpPacketBytes is the packet size a default queue limit counts in: a
	// full Ethernet MTU (RFC 894), the size of a bulk TCP segment with its
	// headers.
	bdpPacketBytes = 1500
)

// linkFlags describe a fixed link: simulated (sim) or emulated (emu, shell).
type linkFlags struct {
	rate  string
	rtt   time.Duration
	queue int
	loss  float64
}

// register adds --rate, --rtt, --queue and --loss; lossOn says which
// direction the random loss applies to.
func (l *linkFlags) register(c *cobra.Command, lossOn string) {
	fl := c.Flags()
	fl.StringVar(&l.rate, "rate", defaultRate, "link rate in each direction (bps, kbps, Mbps, Gbps)")
	fl.DurationVar(&l.rtt, "rtt", defaultRTT, "base round-trip time (half each way)")
	fl.IntVar(&l.queue, "queue", 0, "drop-tail queue limit in packets (0: one BDP of 1500-byte packets)")
	fl.Float64Var(&l.loss, "loss", 0, "i.i.d. random loss probability on the "+lossOn+", in [0, 1)")
}

// queueLimit is --queue, or by default one bandwidth-delay product of the
// link in bdpPacketBytes packets (at least one).
func (l *linkFlags) queueLimit(rateBps float64) int {
	if l.queue != 0 {
		return l.queue
	}
	return max(1, int(rateBps*l.rtt.Seconds()/8/bdpPacketBytes))
}
