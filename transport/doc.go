// Package transport owns leolab's TCP-like sender and receiver state machines.
//
// They read no clock and touch no socket: every method takes the time as an
// argument (a time.Duration since the run's epoch) and packets come from and
// go back to a packet.Pool owned by the caller. The same state machines are
// driven by the discrete-event simulator (netsim) and by the UDP endpoint
// of the live emulator (package endpoint).
//
// The Sender owns the sequence space, the SACK scoreboard (RFC 2018,
// RFC 6675), RACK-TLP loss detection (RFC 8985), the retransmission timer
// (RFC 6298), earliest-departure-time pacing in TSO-sized bursts of ~1 ms
// of data (Linux tcp_output.c tcp_tso_autosize, tcp_update_skb_after_send)
// and delivery-rate sampling (draft-cheng-iccrg-delivery-rate-estimation).
// The congestion controller (cc.Controller) only decides cwnd and pacing
// rate.
//
// The Receiver owns the cumulative ACK, SACK block generation (RFC 2018 §4),
// delayed and quick ACKs (RFC 1122 §4.2.3.2, RFC 5681 §4.2), Linux's SACK
// compression (tcp_input.c: after three duplicate ACKs, one ACK per 1 ms or
// per 44 segments while data is out of order) and Linux's receive-window
// autotuning (rcvwnd.go: a 10-segment first window that grows by 2 MSS per
// segment received, dynamic right-sizing of its clamp once per receiver
// RTT, up to ReceiverConfig.Rwnd), which ACK-clocks a sender whose cwnd
// outruns the path, as the real receivers did (snd_wnd in the real traces
// grows from tens of KB to ~11.9 MB in the first seconds).
//
// Where Linux and the RFCs differ, the model follows Linux, because the
// emulator's ground truth is kernel TCP: retransmissions on a 1-BDP
// drop-tail path match the kernel's within 5% (emu TestKernelVsSim).
//
// Units: bytes count TCP payload unless a name says otherwise (Size is wire
// bytes); rates are payload bytes per second.
package transport
