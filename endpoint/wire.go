package endpoint

import (
	"encoding/binary"
	"errors"

	"github.com/leolab/leolab/packet"
)

// Wire format of leolab's transport over UDP: a fixed header carrying the
// packet.Packet fields the transport reads, padded to the packet's Size
// minus the IPv4 and UDP headers so that the link sees the same IP bytes
// as for TCP. All fields big-endian.
//
//	common: magic u16, kind u8, flags u8 (retrans, ce, ece), flow u32
//	data:   seq u64, len u32, txid u64
//	ack:    ack u64, echo u64, rwnd u32, nsack u8, nsack × (start u64, end u64)
const (
	wireMagic    = 0x4c4c // "LL": rejects stray datagrams
	wireCommon   = 8
	wireData     = wireCommon + 8 + 4 + 8
	wireAckFixed = wireCommon + 8 + 8 + 4 + 1
	wireSack     = 16
	wireAckMax   = wireAckFixed + packet.MaxSack*wireSack

	maxRwnd = 1<<31 - 1 // window field range (a signed 32-bit int everywhere)

	flagRetrans = 1 << 0
	flagCE      = 1 << 1
	flagECE     = 1 << 2
)

var errWire = errors.New("transport datagram: malformed")

// wireLen is the UDP payload length of p on the wire: its IP size minus the
// IPv4 and UDP headers, at least the header it needs.
func wireLen(p *packet.Packet) int {
	need := wireData
	if p.Kind == packet.Ack {
		need = wireAckFixed + int(p.NSack)*wireSack
	}
	return max(need, p.Size-udpIPHeaders)
}

// encode writes p into b (len(b) >= wireLen(p)) and returns the datagram.
// Padding bytes are left as they are in b (callers reuse one zeroed
// buffer).
func encode(b []byte, p *packet.Packet) []byte {
	n := wireLen(p)
	b = b[:n]
	be := binary.BigEndian
	be.PutUint16(b[0:2], wireMagic)
	b[2] = byte(p.Kind)
	var fl byte
	if p.Retrans {
		fl |= flagRetrans
	}
	if p.CE {
		fl |= flagCE
	}
	if p.ECE {
		fl |= flagECE
	}
	b[3] = fl
	be.PutUint32(b[4:8], uint32(p.Flow))
	if p.Kind != packet.Ack {
		be.PutUint64(b[8:16], p.Seq)
		be.PutUint32(b[16:20], uint32(p.Len))
		be.PutUint64(b[20:28], p.TxID)
		return b
	}
	be.PutUint64(b[8:16], p.Ack)
	be.PutUint64(b[16:24], p.Echo)
	be.PutUint32(b[24:28], uint32(min(max(p.Rwnd, 0), maxRwnd)))
	b[28] = p.NSack
	for i, s := range p.Sacks() {
		o := wireAckFixed + i*wireSack
		be.PutUint64(b[o:o+8], s.Start)
		be.PutUint64(b[o+8:o+16], s.End)
	}
	return b
}

// decode fills p from datagram b; p.Size is the IP size (len(b) plus the
// IPv4 and UDP headers).
func decode(b []byte, p *packet.Packet) error {
	be := binary.BigEndian
	if len(b) < wireCommon || be.Uint16(b[0:2]) != wireMagic {
		return errWire
	}
	p.Kind = packet.Kind(b[2])
	fl := b[3]
	p.Retrans, p.CE, p.ECE = fl&flagRetrans != 0, fl&flagCE != 0, fl&flagECE != 0
	p.Flow = packet.FlowID(be.Uint32(b[4:8]))
	p.Size = len(b) + udpIPHeaders
	switch p.Kind {
	case packet.Data:
		if len(b) < wireData {
			return errWire
		}
		p.Seq = be.Uint64(b[8:16])
		p.Len = int(be.Uint32(b[16:20]))
		p.TxID = be.Uint64(b[20:28])
		if p.Len > len(b) || p.Seq+uint64(p.Len) < p.Seq {
			return errWire
		}
	case packet.Ack:
		if len(b) < wireAckFixed {
			return errWire
		}
		p.Ack = be.Uint64(b[8:16])
		p.Echo = be.Uint64(b[16:24])
		p.Rwnd = int(min(be.Uint32(b[24:28]), maxRwnd))
		p.NSack = b[28]
		if p.NSack > packet.MaxSack || len(b) < wireAckFixed+int(p.NSack)*wireSack {
			return errWire
		}
		for i := range int(p.NSack) {
			o := wireAckFixed + i*wireSack
			p.Sack[i] = packet.Block{Start: be.Uint64(b[o : o+8]), End: be.Uint64(b[o+8 : o+16])}
			if p.Sack[i].End < p.Sack[i].Start {
				return errWire
			}
		}
	default:
		return errWire
	}
	return nil
}
