package capture

import "net"

// Addresses and ports of a capture: the emulator's plan (emu.ClientIP,
// emu.ServerIP, emu's basePort), so that sim and emu captures of one
// scenario read alike.
var (
	clientIP = net.IPv4(10, 77, 0, 1).To4()
	serverIP = net.IPv4(10, 77, 0, 2).To4()
)

const (
	// receiverPort is flow 0's receiving port (iperf3's 5201, as emu).
	receiverPort = 5201
	// senderPort is flow 0's sending port in the simulator: the first of
	// Linux's ephemeral ports (ip_local_port_range's default 32768–60999).
	senderPort = 32768
)
