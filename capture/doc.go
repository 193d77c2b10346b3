// Package capture writes a run's packets as pcap files that Wireshark,
// tshark and tcptrace read. It owns the capture points, the addresses and
// ports a capture shows, and the TCP/IPv4 and UDP headers of the
// simulator's packets (built and serialised with gopacket's layers, written
// with its pcapgo writer).
//
// A run writes one file per end of the path, each what a capture on that
// host would see: server.pcap (the remote end) and client.pcap (the
// terminal side). The sender's file holds every transmission (data as sent,
// the ACKs as they arrive); the receiver's file holds what the forward link
// delivered and the ACKs as sent. Addresses and ports are the emulator's
// (client 10.77.0.1, server 10.77.0.2, flow i's receiver on port 5201+i);
// in the simulator the sender's port is 32768+i.
//
// Simulated packets carry no payload bytes: the simulator's files hold the
// headers only (the captured length) with the packet's real length on the
// wire (the original length), as a capture with a small snap length does.
// Checksums are those of a zero payload. Timestamps are the scenario's
// epoch_utc (the Unix epoch without one) plus the virtual time. In the
// emulator (Live) the files hold the first SnapLen bytes of the real IP
// packets at the two TUNs, stamped with the wall-clock times of the pump's
// reads and writes; the pump hands them over through a fixed ring and
// never waits for the writer.
//
// What the simulator's headers hold: the sequence number is the byte
// offset + 1 (as after a SYN with ISN 0), the ACK number likewise, the window the
// receiver's advertised window at window scale 9 (RFC 7323 §2.3: the
// smallest scale that holds the transport's 16 MiB receive window), SACK
// blocks (RFC 2018), ECN bits (RFC 3168), and a timestamps option (RFC 7323
// §3) whose TSval on a data segment is the transmission's TxID (unique per
// (re)transmission) and whose TSecr on an ACK echoes the TxID of the
// segment that triggered it, as the transport itself does; an ACK's TSval
// is its send time in ms, and a data segment's TSecr is 0. The transport
// has no handshake and the files show none: readers do not see the window
// scale (tshark: -o tcp.default_window_scaling:9) and, without a handshake
// RTT, Wireshark labels a resend sent within 3 ms of the highest segment
// "out-of-order" instead of "retransmission" (packet-tcp.c's default
// threshold); at the sender's end nothing reorders, so both labels are
// retransmissions there.
package capture
