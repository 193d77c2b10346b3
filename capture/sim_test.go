package capture

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/packet"
)

func newTestSim(t testing.TB, dir, direction string) *Sim {
	t.Helper()
	s, err := NewSim(dir, &netsim.Spec{EpochUTC: "2026-04-01T12:00:05Z", Direction: direction, Flows: make([]netsim.FlowSpec, 3)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func readAll(t *testing.T, file string) ([]gopacket.Packet, []gopacket.CaptureInfo) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if r.LinkType() != layers.LinkTypeRaw || r.Snaplen() != SnapLen {
		t.Fatalf("link type %v snaplen %d", r.LinkType(), r.Snaplen())
	}
	var ps []gopacket.Packet
	var cis []gopacket.CaptureInfo
	for {
		data, ci, err := r.ReadPacketData()
		if err != nil {
			break
		}
		ps = append(ps, gopacket.NewPacket(data, layers.LayerTypeIPv4, gopacket.Default))
		cis = append(cis, ci)
	}
	return ps, cis
}

// The headers of a data segment, a SACK-carrying ACK and a probe read back
// with the fields the packets had, at each end's file, with the wire
// lengths and times.
func TestHeadersReadBack(t *testing.T) {
	dir := t.TempDir()
	s := newTestSim(t, dir, "uplink") // senders at the client
	data := &packet.Packet{Flow: 2, Kind: packet.Data, Seq: 5 << 32, Len: packet.MSS, Size: packet.MSS + packet.HeaderSize, TxID: 77, ECT: true, CE: true}
	ack := &packet.Packet{Flow: 2, Kind: packet.Ack, Ack: 1000, Rwnd: 1 << 20, ECE: true, Echo: 76, SentAt: 1500 * time.Millisecond,
		Sack: [3]packet.Block{{Start: 3000, End: 4000}, {Start: 5000, End: 6000}, {Start: 8000, End: 9448}}, NSack: 3, Size: packet.AckSize + 4 + 24}
	probe := &packet.Packet{Flow: 1, Kind: packet.Probe, Size: 1000}
	s.Packet(time.Second, netsim.ReceiverIn, data)
	s.Packet(1500*time.Millisecond, netsim.ReceiverOut, ack)
	s.Packet(2*time.Second, netsim.SenderOut, probe)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	epoch := time.Date(2026, 4, 1, 12, 0, 5, 0, time.UTC)
	recv, cis := readAll(t, filepath.Join(dir, ServerFile))
	if len(recv) != 2 {
		t.Fatalf("receiver's file (server): %d packets, want 2", len(recv))
	}
	ip := recv[0].Layer(layers.LayerTypeIPv4).(*layers.IPv4)
	tcp := recv[0].Layer(layers.LayerTypeTCP).(*layers.TCP)
	if !ip.SrcIP.Equal(clientIP) || !ip.DstIP.Equal(serverIP) || ip.TOS&3 != ce || int(ip.Length) != data.Size {
		t.Errorf("data IP: %v → %v tos %#x length %d", ip.SrcIP, ip.DstIP, ip.TOS, ip.Length)
	}
	if tcp.SrcPort != senderPort+2 || tcp.DstPort != receiverPort+2 || tcp.Seq != 1 || !tcp.ACK || tcp.Ack != 1 {
		t.Errorf("data TCP: ports %d→%d seq %d ack %d (seq wraps mod 2^32: 5<<32+1 → 1)", tcp.SrcPort, tcp.DstPort, tcp.Seq, tcp.Ack)
	}
	if cis[0].Timestamp.UTC() != epoch.Add(time.Second) || cis[0].Length != data.Size || cis[0].CaptureLength != 52 {
		t.Errorf("data capture info %+v", cis[0])
	}
	checkTS(t, tcp, 77, 0)
	tcp = recv[1].Layer(layers.LayerTypeTCP).(*layers.TCP)
	if tcp.Ack != 1001 || !tcp.ECE || tcp.Window != (1<<20)>>windowScale || cis[1].Length != ack.Size || cis[1].CaptureLength != ack.Size {
		t.Errorf("ACK: ack %d ece %v window %d, lengths %+v (want %d)", tcp.Ack, tcp.ECE, tcp.Window, cis[1], ack.Size)
	}
	checkTS(t, tcp, 1500, 76)
	var sacks []uint32
	for _, o := range tcp.Options {
		if o.OptionType == layers.TCPOptionKindSACK {
			for i := 0; i+8 <= len(o.OptionData); i += 8 {
				sacks = append(sacks, be32(o.OptionData[i:]), be32(o.OptionData[i+4:]))
			}
		}
	}
	if want := []uint32{3001, 4001, 5001, 6001, 8001, 9449}; len(sacks) != 6 || sacks[0] != want[0] || sacks[5] != want[5] {
		t.Errorf("SACK blocks %v, want %v", sacks, want)
	}
	send, cis := readAll(t, filepath.Join(dir, ClientFile))
	if len(send) != 1 {
		t.Fatalf("sender's file: %d packets, want 1", len(send))
	}
	udp := send[0].Layer(layers.LayerTypeUDP).(*layers.UDP)
	if udp == nil || udp.SrcPort != senderPort+1 || udp.DstPort != receiverPort+1 || udp.Length != 980 || cis[0].Length != 1000 || cis[0].CaptureLength != 28 {
		t.Errorf("probe: %+v, capture info %+v", udp, cis[0])
	}
}

func be32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

func checkTS(t *testing.T, tcp *layers.TCP, val, ecr uint32) {
	t.Helper()
	for _, o := range tcp.Options {
		if o.OptionType == layers.TCPOptionKindTimestamps {
			if v, e := be32(o.OptionData), be32(o.OptionData[4:]); v != val || e != ecr {
				t.Errorf("timestamps %d/%d, want %d/%d", v, e, val, ecr)
			}
			return
		}
	}
	t.Errorf("no timestamps option")
}

// Capturing a packet allocates nothing once the buffers exist.
func TestPacketAllocs(t *testing.T) {
	s := newTestSim(t, t.TempDir(), "")
	defer s.Close()
	data := &packet.Packet{Kind: packet.Data, Len: packet.MSS, Size: packet.MTU, TxID: 1}
	ack := &packet.Packet{Kind: packet.Ack, NSack: 2, Size: 72}
	s.Packet(0, netsim.SenderOut, data)
	s.Packet(0, netsim.SenderIn, ack)
	if n := testing.AllocsPerRun(1000, func() {
		s.Packet(time.Millisecond, netsim.SenderOut, data)
		s.Packet(time.Millisecond, netsim.SenderIn, ack)
	}); n != 0 {
		t.Errorf("%.1f allocs per data + ACK capture, want 0", n)
	}
}

// BenchmarkPacket: the cost of capturing one data segment (serialise and
// buffered write).
func BenchmarkPacket(b *testing.B) {
	s := newTestSim(b, b.TempDir(), "")
	defer s.Close()
	p := &packet.Packet{Kind: packet.Data, Len: packet.MSS, Size: packet.MTU, TxID: 1}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.Seq = uint64(i) * packet.MSS
		s.Packet(time.Duration(i)*time.Microsecond, netsim.SenderOut, p)
	}
}
