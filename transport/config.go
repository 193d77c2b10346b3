package transport

import (
	"time"

	"github.com/leolab/leolab/packet"
)

// Sender defaults.
const (
	// DefaultMinRTO is Linux's TCP_RTO_MIN (include/net/tcp.h: HZ/5). RFC 6298
	// §2.4 would say 1 s; Linux's floor is what the real senders use.
	DefaultMinRTO = 200 * time.Millisecond
	// DefaultMaxRTO is Linux's TCP_RTO_MAX (include/net/tcp.h: 120*HZ).
	DefaultMaxRTO = 120 * time.Second
	// DefaultInitialRTO is RFC 6298 §2.1's 1 s (Linux TCP_TIMEOUT_INIT).
	DefaultInitialRTO = time.Second
	// DefaultDupThresh is RFC 5681 §3.2 / RFC 6675 §2's DupThresh (Linux
	// sysctl tcp_reordering default).
	DefaultDupThresh = 3
	// DefaultSndBuf caps unacknowledged data at 16 MiB, as DefaultRwnd
	// does on the receiver side. Linux's own default ceiling is 4 MiB
	// (tcp_wmem[2]; tcp_sndbuf_expand autotunes up to it), but the
	// measurement servers of the real traces were not held to it: with
	// 4 MiB, simulated BBR on the long-RTT downlinks (London, Ohio, São
	// Paulo, Mumbai) delivers half the real throughput (London 74 vs 141
	// Mbit/s). Set SndBuf to 4 MiB to model a default Linux sender; the
	// emulator gives its kernel senders the same value as tcp_wmem[2].
	DefaultSndBuf = 16 << 20
)

// Receiver defaults.
const (
	// DefaultRwnd caps the receive window at 16 MiB, about Linux's autotuned
	// ceiling (tcp_rmem max 6 MiB..32 MiB by distribution). The real
	// dataset's receivers advertised at most 11.86 MB (the client, on the
	// downlink) and 4.78 MB (the AWS servers, on the uplink; iperf3's
	// snd_wnd); a flow's `rwnd` sets that, and the seed-000 campaign gives
	// its flows those (campaign.DatasetRwnd).
	DefaultRwnd = 16 << 20
	// DefaultAckEvery: ACK at least every second full-sized segment
	// (RFC 1122 §4.2.3.2, RFC 5681 §4.2; Linux __tcp_ack_snd_check ACKs when
	// more than one rcv_mss is unacknowledged).
	DefaultAckEvery = 2
	// DefaultDelAckTimeout is Linux's TCP_DELACK_MIN (HZ/25 = 40 ms), the
	// delayed-ACK timer of a receiver not in ping-pong mode.
	DefaultDelAckTimeout = 40 * time.Millisecond
	// DefaultQuickAcks is Linux's TCP_MAX_QUICKACKS (16): the receiver ACKs
	// every segment at the start of a connection (tcp_incr_quickack called
	// from tcp_event_data_recv on the first data, tcp_input.c).
	DefaultQuickAcks = 16
	// DefaultCompSackNr and DefaultCompSackDelay are Linux's SACK
	// compression (tcp_input.c __tcp_ack_snd_check, since 4.19): while data
	// is out of order, after the first TCP_FASTRETRANS_THRESH (3) duplicate
	// ACKs for one RCV.NXT, further SACKs wait for a timer of
	// min(tcp_comp_sack_delay_ns = 1 ms, RTT/20) or until
	// tcp_comp_sack_nr = 44 ACKs were held back.
	DefaultCompSackNr    = 44
	DefaultCompSackDelay = time.Millisecond
	// compSackImmediate is TCP_FASTRETRANS_THRESH: the duplicate ACKs per
	// RCV.NXT that are never compressed, so the sender's fast retransmit
	// is not delayed.
	compSackImmediate = 3
)

// SenderConfig configures a Sender. Zero fields take the defaults above.
type SenderConfig struct {
	Flow packet.FlowID
	// MSS is the payload bytes per segment (default packet.MSS).
	MSS int
	// Bytes to send; 0 means unlimited bulk data (iperf3-like, never
	// application limited).
	Bytes int64
	// MinRTO, MaxRTO clamp the retransmission timeout; InitialRTO is used
	// before the first RTT sample.
	MinRTO, MaxRTO, InitialRTO time.Duration
	// DupThresh is the number of SACKed segments above a hole that marks it
	// lost (RFC 6675 IsLost) when RACK is off, and that zeroes RACK's
	// reordering window when no reordering has been seen (Linux).
	DupThresh int
	// NoRACK disables RACK (falls back to the dup-threshold rule); NoTLP
	// disables tail loss probes. Both are on by default, as in Linux.
	NoRACK, NoTLP bool
	// NoTSO paces every segment on its own instead of in Linux's TSO
	// bursts of about 1 ms of data (tcp_tso_autosize).
	NoTSO bool
	// SndBuf caps the unacknowledged payload (the send buffer of a bulk
	// application that keeps it full); default DefaultSndBuf.
	SndBuf int
	// MaxRateBps limits the rate at which the sending host puts this
	// flow's packets on the wire, in bits per second of whole packets
	// (headers included), as a host's egress shaper does (hostrate.go):
	// packets wait in the host, unsent, so the limit costs no loss and no
	// RTT. 0: no limit.
	MaxRateBps float64
	// MaxRateBurst is the depth of that limit's token bucket in bytes,
	// full at the start: a burst credit spent at the path's pace before
	// the limit holds (at least and by default MinHostBurst).
	MaxRateBurst int
	// InitialRwnd is the receive window the handshake offered, which
	// bounds the first flight until the first ACK: InitialRwnd(MSS) for a
	// Linux receiver that autotunes. 0: unbounded until the first ACK.
	InitialRwnd int
	// ECN is a negotiated RFC 3168 connection: data segments are sent
	// ECN-capable (ECT(0)), and an ACK with ECN-Echo makes the controller
	// reduce as for a loss, at most once per window of data and without
	// a retransmission (§6.1.2; Linux tcp_enter_cwr), the next new
	// segment carrying CWR. Our receiver echoes CE on the ACK that covers
	// the marked segment (as DCTCP's does, RFC 8257 §3.2, which BBRv3's
	// ECN response expects) rather than until CWR arrives (RFC 3168
	// §6.1.3), so it does not need CWR; the flag is set for captures.
	ECN bool
}

func (c SenderConfig) withDefaults() SenderConfig {
	if c.MSS <= 0 {
		c.MSS = packet.MSS
	}
	if c.MinRTO <= 0 {
		c.MinRTO = DefaultMinRTO
	}
	if c.MaxRTO <= 0 {
		c.MaxRTO = DefaultMaxRTO
	}
	if c.InitialRTO <= 0 {
		c.InitialRTO = DefaultInitialRTO
	}
	if c.DupThresh <= 0 {
		c.DupThresh = DefaultDupThresh
	}
	if c.SndBuf <= 0 {
		c.SndBuf = DefaultSndBuf
	}
	return c
}

// ReceiverConfig configures a Receiver. Zero fields take the defaults above.
type ReceiverConfig struct {
	Flow packet.FlowID
	// Rwnd is the receive-window cap in bytes.
	Rwnd int
	// MSS is the sender's segment payload size, for the window's
	// per-segment growth (default packet.MSS).
	MSS int
	// NoAutoTune advertises Rwnd from the first ACK instead of Linux's
	// autotuned window (rcvwnd.go), which starts at 10 segments and grows
	// with what the receiver gets.
	NoAutoTune bool
	// AckEvery is the number of in-order full segments that forces an ACK.
	AckEvery int
	// DelAckTimeout bounds how long an ACK may be delayed.
	DelAckTimeout time.Duration
	// QuickAcks is the number of segments ACKed immediately at the start.
	// A negative value disables quick ACKs.
	QuickAcks int
	// CompSackNr bounds how many out-of-order ACKs SACK compression holds
	// back (negative: no compression, every out-of-order segment is ACKed
	// at once as RFC 5681 §4.2 asks); CompSackDelay is its timer. The
	// RTT/20 term of Linux's timer is not modelled (the receiver keeps no
	// RTT estimate): it is shorter than 1 ms only below 20 ms RTT.
	CompSackNr    int
	CompSackDelay time.Duration
}

func (c ReceiverConfig) withDefaults() ReceiverConfig {
	if c.Rwnd <= 0 {
		c.Rwnd = DefaultRwnd
	}
	if c.MSS <= 0 {
		c.MSS = packet.MSS
	}
	if c.AckEvery <= 0 {
		c.AckEvery = DefaultAckEvery
	}
	if c.DelAckTimeout <= 0 {
		c.DelAckTimeout = DefaultDelAckTimeout
	}
	if c.QuickAcks == 0 {
		c.QuickAcks = DefaultQuickAcks
	} else if c.QuickAcks < 0 {
		c.QuickAcks = 0
	}
	if c.CompSackNr == 0 {
		c.CompSackNr = DefaultCompSackNr
	} else if c.CompSackNr < 0 {
		c.CompSackNr = 0
	}
	if c.CompSackDelay <= 0 {
		c.CompSackDelay = DefaultCompSackDelay
	}
	return c
}
