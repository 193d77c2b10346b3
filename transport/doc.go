// Package transport owns leolab's TCP-like sender and receiver state machines.
//
// They read no clock and touch no socket: every method takes the time as an
// argument (a time.Duration since the run's epoch) and packets come from and
// go back to a packet.Pool owned by the caller. The same state machines are
// driven by the discrete-event simulator (netsim) and, later, by the UDP
// endpoint of the real-time engines.
//
// The Sender owns the sequence space, the SACK scoreboard (RFC 2018,
// RFC 6675), RACK-TLP loss detection (RFC 8985), the retransmission timer
// (RFC 6298), earliest-departure-time pacing (Linux tcp_output.c) and
// delivery-rate sampling (draft-cheng-iccrg-delivery-rate-estimation). The
// congestion controller (cc.Controller) only decides cwnd and pacing rate.
//
// The Receiver owns the cumulative ACK, SACK block generation (RFC 2018 §4),
// delayed and quick ACKs (RFC 1122 §4.2.3.2, RFC 5681 §4.2, Linux
// tcp_input.c) and a simplified receive window.
//
// Units: bytes count TCP payload unless a name says otherwise (Size is wire
// bytes); rates are payload bytes per second.
package transport
