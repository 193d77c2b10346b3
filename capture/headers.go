package capture

import (
	"encoding/binary"
	"net"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/leolab/leolab/packet"
)

// Header fields of the simulator's packets.
const (
	// windowScale holds the transport's 16 MiB receive window
	// (transport.DefaultRwnd) in 16 bits: 65535·2^9 ≥ 2^24 (RFC 7323 §2.3).
	windowScale = 9
	// ttl is Linux's default IPv4 TTL (net.ipv4.ip_default_ttl = 64).
	ttl = 64
	// ECN codepoints in the IP header's low two TOS bits (RFC 3168 §5).
	ect0 = 0b10
	ce   = 0b11
)

// builder serialises leolab packets into header bytes with gopacket's
// layers. It reuses its layers, options and buffer: after the first
// packets, building one allocates nothing new.
type builder struct {
	buf  gopacket.SerializeBuffer
	opts gopacket.SerializeOptions
	ip   layers.IPv4
	tcp  layers.TCP
	udp  layers.UDP
	zero []byte // payload stand-in (checksums of a zero payload)
	pay  gopacket.Payload

	tcpOpts [6]layers.TCPOption
	ts      [8]byte
	sack    [packet.MaxSack * 8]byte
	ipID    uint16
}

func newBuilder() *builder {
	b := &builder{
		buf:  gopacket.NewSerializeBufferExpectedSize(60, packet.MTU),
		opts: gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true},
		zero: make([]byte, packet.MTU),
	}
	b.ip = layers.IPv4{Version: 4, TTL: ttl, Flags: layers.IPv4DontFragment}
	b.tcp.SetNetworkLayerForChecksum(&b.ip)
	b.udp.SetNetworkLayerForChecksum(&b.ip)
	return b
}

// ends gives a packet's source and destination address and port.
type ends struct {
	src, dst         net.IP
	srcPort, dstPort uint16
}

// serialise writes IPv4 + l4 + a zero payload of n bytes and returns the
// header bytes (without the payload) and the length on the wire.
func (b *builder) serialise(e ends, tos uint8, proto layers.IPProtocol, l4 gopacket.SerializableLayer, hdr, n int) ([]byte, int, error) {
	b.ip.SrcIP, b.ip.DstIP = e.src, e.dst
	b.ip.TOS, b.ip.Protocol = tos, proto
	b.ip.Id = b.ipID
	b.ipID++
	n = min(max(n, 0), len(b.zero))
	b.pay = b.zero[:n]
	if err := gopacket.SerializeLayers(b.buf, b.opts, &b.ip, l4, &b.pay); err != nil {
		return nil, 0, err
	}
	all := b.buf.Bytes()
	return all[:min(len(all)-n, hdr)], len(all), nil
}

// segment describes one TCP segment to build.
type segment struct {
	ends
	seq, ack     uint32
	ece          bool
	window       uint16
	tsVal, tsEcr uint32
	sacks        []packet.Block
	sackBase     uint32 // added to SACK block edges (the peer's ISN + 1)
	payload      int
	tos          uint8
}

// tcpSegment builds one TCP segment's headers.
func (b *builder) tcpSegment(s *segment) ([]byte, int, error) {
	t := &b.tcp
	*t = layers.TCP{SrcPort: layers.TCPPort(s.srcPort), DstPort: layers.TCPPort(s.dstPort),
		Seq: s.seq, Ack: s.ack, ACK: true, ECE: s.ece, Window: s.window}
	t.SetNetworkLayerForChecksum(&b.ip)
	opts := b.tcpOpts[:0]
	nop := layers.TCPOption{OptionType: layers.TCPOptionKindNop}
	// Option layout as Linux's tcp_options_write: NOP, NOP, timestamps
	// (12 bytes), then NOP, NOP, SACK (RFC 2018 §3).
	binary.BigEndian.PutUint32(b.ts[:4], s.tsVal)
	binary.BigEndian.PutUint32(b.ts[4:], s.tsEcr)
	opts = append(opts, nop, nop, layers.TCPOption{OptionType: layers.TCPOptionKindTimestamps, OptionData: b.ts[:]})
	if len(s.sacks) > 0 {
		for i, k := range s.sacks {
			binary.BigEndian.PutUint32(b.sack[8*i:], s.sackBase+uint32(k.Start))
			binary.BigEndian.PutUint32(b.sack[8*i+4:], s.sackBase+uint32(k.End))
		}
		opts = append(opts, nop, nop, layers.TCPOption{OptionType: layers.TCPOptionKindSACK, OptionData: b.sack[:8*len(s.sacks)]})
	}
	t.Options = opts
	return b.serialise(s.ends, s.tos, layers.IPProtocolTCP, t, SnapLen, s.payload)
}

// datagram builds a UDP datagram's headers; size is its IP length.
func (b *builder) datagram(e ends, size int, tos uint8) ([]byte, int, error) {
	b.udp = layers.UDP{SrcPort: layers.UDPPort(e.srcPort), DstPort: layers.UDPPort(e.dstPort)}
	b.udp.SetNetworkLayerForChecksum(&b.ip)
	return b.serialise(e, tos, layers.IPProtocolUDP, &b.udp, SnapLen, size-28) // IPv4 20 + UDP 8
}

// tos returns a packet's ECN bits.
func tos(p *packet.Packet) uint8 {
	switch {
	case p.CE:
		return ce
	case p.ECT:
		return ect0
	}
	return 0
}
