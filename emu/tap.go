package emu

import "time"

// Tap sees every IP packet at the two TUN devices: as the pump reads it
// (the namespace sent it) and as the pump writes it (the namespace
// receives it), at the pump's times since its epoch; package capture
// writes them as pcap files (one per namespace). Packet runs on the pump's
// thread: it must not block, allocate or keep b. A nil Config.Tap costs
// one comparison per packet.
type Tap interface {
	// Start gives the wall-clock instant of the pump's time 0, before
	// any packet.
	Start(epoch time.Time)
	// Packet: server tells the server's TUN from the client's.
	Packet(server bool, at time.Duration, b []byte)
}
