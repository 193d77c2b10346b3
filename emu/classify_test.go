package emu

import (
	"encoding/binary"
	"testing"

	"github.com/leolab/leolab/packet"
)

// ipv4 builds an IPv4 packet with a TCP or UDP header and payload bytes.
func ipv4(proto uint8, src, dst [4]byte, sport, dport uint16, payload int, tos byte) []byte {
	l4 := udpHeader
	if proto == protoTCP {
		l4 = tcpMinHeader + 12 // with the timestamp option, as Linux sends
	}
	b := make([]byte, ipv4MinHeader+l4+payload)
	b[0] = 0x45
	b[1] = tos
	binary.BigEndian.PutUint16(b[2:4], uint16(len(b)))
	b[8] = 64
	b[9] = proto
	copy(b[12:16], src[:])
	copy(b[16:20], dst[:])
	binary.BigEndian.PutUint16(b[10:12], ipChecksum(b[:ipv4MinHeader]))
	t := b[ipv4MinHeader:]
	binary.BigEndian.PutUint16(t[0:2], sport)
	binary.BigEndian.PutUint16(t[2:4], dport)
	if proto == protoTCP {
		binary.BigEndian.PutUint32(t[4:8], 1000)
		t[12] = byte(l4/4) << 4
	}
	return b
}

func TestClassify(t *testing.T) {
	c, s := [4]byte{10, 77, 0, 1}, [4]byte{10, 77, 0, 2}
	cl := newClassifier()
	tests := []struct {
		name string
		b    []byte
		flow packet.FlowID
		kind packet.Kind
		size int
		len  int
	}{
		{"tcp data c->s", ipv4(protoTCP, c, s, 40000, 5201, 1448, 0), 0, packet.Data, 1500, 1448},
		{"tcp ack s->c shares the flow", ipv4(protoTCP, s, c, 5201, 40000, 0, 0), 0, packet.Ack, 52, 0},
		{"second connection", ipv4(protoTCP, c, s, 40001, 5201, 100, 0), 1, packet.Data, 152, 100},
		{"udp", ipv4(protoUDP, c, s, 40000, 5201, 1472, 0), 2, packet.Probe, 1500, 1472},
	}
	for _, tc := range tests {
		var p packet.Packet
		if !cl.classify(tc.b, &p) {
			t.Fatalf("%s: not classified", tc.name)
		}
		if p.Flow != tc.flow || p.Kind != tc.kind || p.Size != tc.size || p.Len != tc.len {
			t.Errorf("%s: flow %d kind %v size %d len %d, want %d %v %d %d",
				tc.name, p.Flow, p.Kind, p.Size, p.Len, tc.flow, tc.kind, tc.size, tc.len)
		}
	}
	var p packet.Packet
	ipv6 := make([]byte, 60)
	ipv6[0] = 0x60
	if cl.classify(ipv6, &p) || cl.classify([]byte{0x45, 0}, &p) {
		t.Errorf("IPv6 or truncated packet classified")
	}
	short := ipv4(protoUDP, c, s, 1, 2, 10, 0)
	if cl.classify(short[:len(short)-1], &p) {
		t.Errorf("packet shorter than its total length classified")
	}
}

func TestMarkCE(t *testing.T) {
	c, s := [4]byte{10, 77, 0, 1}, [4]byte{10, 77, 0, 2}
	notECT := ipv4(protoTCP, c, s, 1, 2, 10, 0x00)
	if markCE(notECT) || notECT[1] != 0 {
		t.Fatalf("not-ECT packet marked")
	}
	ect := ipv4(protoTCP, c, s, 1, 2, 10, 0x02) // ECT(0)
	if !markCE(ect) || ect[1]&ecnMask != ecnCE {
		t.Fatalf("ECT(0) packet not marked: tos %#x", ect[1])
	}
	// A correct header checksums to zero (RFC 1071).
	if sum := ipChecksum(ect[:ipv4MinHeader]); sum != 0 {
		t.Fatalf("header checksum after marking does not verify: %#x", sum)
	}
}

func BenchmarkClassify(b *testing.B) {
	pkt := ipv4(protoTCP, [4]byte{10, 77, 0, 1}, [4]byte{10, 77, 0, 2}, 40000, 5201, 1448, 0)
	cl := newClassifier()
	var p packet.Packet
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		cl.classify(pkt, &p)
	}
}
