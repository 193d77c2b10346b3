package endpoint

import (
	"testing"

	"github.com/leolab/leolab/packet"
)

func TestWireRoundTrip(t *testing.T) {
	tests := []struct {
		name    string
		p       packet.Packet
		wantLen int // UDP payload bytes
	}{
		{"full data segment", packet.Packet{Kind: packet.Data, Flow: 3, Seq: 1 << 40, Len: packet.MSS,
			Size: packet.MSS + packet.HeaderSize, TxID: 77, Retrans: true, CE: true}, packet.MTU - udpIPHeaders},
		{"tiny data segment", packet.Packet{Kind: packet.Data, Seq: 5, Len: 1, Size: 1 + packet.HeaderSize, TxID: 1}, wireData}, // header larger than the TCP one
		{"pure ack", packet.Packet{Kind: packet.Ack, Ack: 99, Echo: 12, Rwnd: 16 << 20, ECE: true, Size: packet.AckSize}, wireAckFixed},
		{"ack with three sacks", packet.Packet{Kind: packet.Ack, Ack: 1000, NSack: 3, Rwnd: 1,
			Sack: [packet.MaxSack]packet.Block{{Start: 3000, End: 4000}, {Start: 5000, End: 6000}, {Start: 9000, End: 9100}},
			Size: packet.AckSize + 4 + 3*packet.SackBlockSize}, wireAckFixed + 3*wireSack},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			buf := make([]byte, packet.MTU)
			b := encode(buf, &tc.p)
			if len(b) != tc.wantLen {
				t.Fatalf("datagram %d bytes, want %d", len(b), tc.wantLen)
			}
			var got packet.Packet
			if err := decode(b, &got); err != nil {
				t.Fatal(err)
			}
			want := tc.p
			want.Size = len(b) + udpIPHeaders
			if got != want {
				t.Errorf("decoded\n%+v\nwant\n%+v", got, want)
			}
		})
	}
}

func TestWireRejects(t *testing.T) {
	var p packet.Packet
	ack := encode(make([]byte, 200), &packet.Packet{Kind: packet.Ack, NSack: 2, Sack: [3]packet.Block{{Start: 1, End: 2}, {Start: 3, End: 4}}})
	bad := map[string][]byte{
		"empty":       nil,
		"wrong magic": {0, 0, 0, 0, 0, 0, 0, 0},
		"short data":  encode(make([]byte, 100), &packet.Packet{Kind: packet.Data})[:wireData-1],
		"cut sacks":   ack[:len(ack)-1],
		"probe kind":  encode(make([]byte, 100), &packet.Packet{Kind: packet.Probe}),
	}
	for name, b := range bad {
		if err := decode(b, &p); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(encode(make([]byte, 100), &packet.Packet{Kind: packet.Data, Len: 10, Size: 80}))
	f.Add(encode(make([]byte, 100), &packet.Packet{Kind: packet.Ack, NSack: 1, Sack: [3]packet.Block{{Start: 1, End: 9}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		var p packet.Packet
		if decode(b, &p) != nil {
			return
		}
		// Whatever decodes re-encodes to a datagram that decodes the same.
		q := p
		out := encode(make([]byte, max(len(b), wireAckMax)), &q)
		var r packet.Packet
		if err := decode(out, &r); err != nil {
			t.Fatalf("re-encoded datagram rejected: %v", err)
		}
		r.Size, p.Size = 0, 0
		if r != p {
			t.Fatalf("round trip changed the packet:\n%+v\n%+v", p, r)
		}
	})
}

func BenchmarkWireEncodeDecode(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, packet.MTU)
	p := packet.Packet{Kind: packet.Data, Seq: 1, Len: packet.MSS, Size: packet.MTU, TxID: 1}
	var q packet.Packet
	for b.Loop() {
		p.Seq += packet.MSS
		if err := decode(encode(buf, &p), &q); err != nil {
			b.Fatal(err)
		}
	}
}
