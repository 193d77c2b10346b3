package netsim

import (
	"time"

	"github.com/leolab/leolab/packet"
)

// Point is where on the path a Tap sees a packet: at one of the path's two
// ends, going out or coming in, as a capture on that host would see it.
type Point uint8

const (
	// SenderOut: a data segment or probe as its sender puts it on the
	// forward link (every transmission, also those the link drops).
	SenderOut Point = iota
	// ReceiverIn: a data segment or probe as the forward link delivers it.
	ReceiverIn
	// ReceiverOut: an ACK as its receiver puts it on the reverse link.
	ReceiverOut
	// SenderIn: an ACK as it reaches its sender (after the reverse link and
	// the flow's extra delay).
	SenderIn
)

// Tap observes the packets of a run at the path's ends (package capture
// writes them as pcap files). It must not keep or change the packet: the
// packet is the run's and is recycled after the call. A nil Spec.Tap costs
// one comparison per packet.
type Tap interface {
	// Packet is called for every packet passing a point.
	Packet(now time.Duration, at Point, p *packet.Packet)
}
