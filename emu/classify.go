package emu

import (
	"encoding/binary"

	"github.com/leolab/leolab/packet"
)

// IPv4 and transport header layout (RFC 791 §3.1, RFC 793 §3.1, RFC 768).
const (
	ipv4MinHeader = 20
	protoTCP      = 6
	protoUDP      = 17
	tcpMinHeader  = 20
	udpHeader     = 8
	ecnMask       = 0x03 // low two bits of the TOS byte (RFC 3168 §5)
	ecnCE         = 0x03 // Congestion Experienced codepoint
)

// flowKey is a canonical 5-tuple: the lower (addr, port) endpoint first, so
// both directions of a connection (data and ACKs) share one packet.FlowID,
// as in the simulator.
type flowKey struct {
	a, b   [4]byte
	pa, pb uint16
	proto  uint8
}

// classifier assigns FlowIDs in order of first appearance.
type classifier struct {
	flows map[flowKey]packet.FlowID
}

func newClassifier() *classifier {
	return &classifier{flows: make(map[flowKey]packet.FlowID)}
}

// classify fills p's Flow, Kind, Size and Len from the IPv4 packet b. It
// returns false for anything that is not an IPv4 packet with a complete
// header (the pump drops those and counts them).
func (c *classifier) classify(b []byte, p *packet.Packet) bool {
	if len(b) < ipv4MinHeader || b[0]>>4 != 4 {
		return false
	}
	ihl := int(b[0]&0x0f) * 4
	total := int(binary.BigEndian.Uint16(b[2:4]))
	if ihl < ipv4MinHeader || total < ihl || total > len(b) {
		return false
	}
	var k flowKey
	k.proto = b[9]
	copy(k.a[:], b[12:16])
	copy(k.b[:], b[16:20])
	p.Size = total
	p.Kind = packet.Probe
	p.ECT = b[1]&ecnMask != 0 // an AQM may mark it instead of dropping (RFC 3168 §5)
	p.Host = binary.BigEndian.Uint32(b[12:16])
	l4 := b[ihl:total]
	fragment := binary.BigEndian.Uint16(b[6:8])&0x1fff != 0
	switch {
	case fragment:
	case k.proto == protoTCP && len(l4) >= tcpMinHeader:
		k.pa, k.pb = binary.BigEndian.Uint16(l4[0:2]), binary.BigEndian.Uint16(l4[2:4])
		off := int(l4[12]>>4) * 4
		p.Len = max(0, len(l4)-off)
		p.Kind = packet.Ack
		if p.Len > 0 {
			p.Kind = packet.Data
			p.Seq = uint64(binary.BigEndian.Uint32(l4[4:8]))
		}
	case k.proto == protoUDP && len(l4) >= udpHeader:
		k.pa, k.pb = binary.BigEndian.Uint16(l4[0:2]), binary.BigEndian.Uint16(l4[2:4])
		p.Len = len(l4) - udpHeader
	}
	if less(k.b, k.pb, k.a, k.pa) {
		k.a, k.b, k.pa, k.pb = k.b, k.a, k.pb, k.pa
	}
	id, ok := c.flows[k]
	if !ok {
		id = packet.FlowID(len(c.flows))
		c.flows[k] = id
	}
	p.Flow = id
	return true
}

func less(a [4]byte, pa uint16, b [4]byte, pb uint16) bool {
	x, y := binary.BigEndian.Uint32(a[:]), binary.BigEndian.Uint32(b[:])
	return x < y || x == y && pa < pb
}

// markCE sets the CE codepoint on an ECN-capable IPv4 packet and fixes the
// header checksum (RFC 3168 §6.1.1: a not-ECT packet is never marked; the
// caller should have dropped it instead). It reports whether it marked.
func markCE(b []byte) bool {
	if b[1]&ecnMask == 0 {
		return false
	}
	b[1] |= ecnCE
	ihl := int(b[0]&0x0f) * 4
	b[10], b[11] = 0, 0
	binary.BigEndian.PutUint16(b[10:12], ipChecksum(b[:ihl]))
	return true
}

// ipChecksum is the Internet checksum of the header (RFC 1071).
func ipChecksum(h []byte) uint16 {
	var sum uint32
	for i := 0; i+1 < len(h); i += 2 {
		sum += uint32(binary.BigEndian.Uint16(h[i : i+2]))
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}
