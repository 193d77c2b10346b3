package capture

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/transport"
)

// File names of the two ends of a path.
const (
	ServerFile = "server.pcap"
	ClientFile = "client.pcap"
)

// Sim captures a simulated run at both ends of its path; it is a
// netsim.Tap. Set it as the spec's Tap before the run and Close it after.
type Sim struct {
	epoch            time.Time
	sender, receiver *File
	senderIP, recvIP []byte
	b                *builder
	seg              segment
	err              error
	maxWindow        int
}

// NewSim creates server.pcap and client.pcap in dir (made if missing) for
// spec's run. The forward link's senders are at the server unless the
// spec's direction is uplink, as in emu.
func NewSim(dir string, spec *netsim.Spec) (*Sim, error) {
	if len(spec.Flows) > 65535-senderPort {
		return nil, fmt.Errorf("pcap: %d flows: at most %d fit in the capture's port range", len(spec.Flows), 65535-senderPort)
	}
	epoch := time.Unix(0, 0).UTC()
	if spec.EpochUTC != "" {
		t, err := time.Parse(time.RFC3339Nano, spec.EpochUTC)
		if err != nil {
			return nil, fmt.Errorf("pcap: epoch_utc %q: %w", spec.EpochUTC, err)
		}
		epoch = t
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("pcap: %w", err)
	}
	s := &Sim{epoch: epoch, b: newBuilder(), senderIP: serverIP, recvIP: clientIP, maxWindow: transport.DefaultRwnd}
	sendName, recvName := ServerFile, ClientFile
	if spec.Direction == "uplink" {
		s.senderIP, s.recvIP = clientIP, serverIP
		sendName, recvName = ClientFile, ServerFile
	}
	var err error
	if s.sender, err = Create(filepath.Join(dir, sendName)); err != nil {
		return nil, err
	}
	if s.receiver, err = Create(filepath.Join(dir, recvName)); err != nil {
		s.sender.Close()
		return nil, err
	}
	return s, nil
}

// Close flushes both files and returns the first error of the capture.
func (s *Sim) Close() error {
	return errors.Join(s.err, s.sender.Close(), s.receiver.Close())
}

// Packets returns the packets written to the sender's and the receiver's file.
func (s *Sim) Packets() (sender, receiver int64) { return s.sender.Packets, s.receiver.Packets }

var _ netsim.Tap = (*Sim)(nil)

func (s *Sim) forward(flow packet.FlowID) ends {
	return ends{src: s.senderIP, dst: s.recvIP, srcPort: senderPort + uint16(flow), dstPort: receiverPort + uint16(flow)}
}

func (s *Sim) reverse(flow packet.FlowID) ends {
	return ends{src: s.recvIP, dst: s.senderIP, srcPort: receiverPort + uint16(flow), dstPort: senderPort + uint16(flow)}
}

// window is an advertised window in the header's 16 bits at windowScale.
func window(bytes int) uint16 { return uint16(min(max(bytes, 0)>>windowScale, 0xffff)) }

func (s *Sim) writeSegment(t time.Time, sg *segment, f *File) {
	b, wire, err := s.b.tcpSegment(sg)
	if err != nil {
		s.fail(err)
		return
	}
	f.Write(t, b, wire)
}

func (s *Sim) fail(err error) {
	if s.err == nil {
		s.err = fmt.Errorf("pcap: %w", err)
	}
}

// Packet writes p to the file of the end at which it passes.
func (s *Sim) Packet(now time.Duration, at netsim.Point, p *packet.Packet) {
	f := s.receiver
	if at == netsim.SenderOut || at == netsim.SenderIn {
		f = s.sender
	}
	t := s.epoch.Add(now)
	sg := &s.seg
	switch p.Kind {
	case packet.Probe:
		b, wire, err := s.b.datagram(s.forward(p.Flow), p.Size, tos(p))
		if err != nil {
			s.fail(err)
			return
		}
		f.Write(t, b, wire)
		return
	case packet.Data:
		*sg = segment{ends: s.forward(p.Flow), seq: 1 + uint32(p.Seq), ack: 1, window: window(s.maxWindow),
			tsVal: uint32(p.TxID), payload: p.Len, tos: tos(p)}
	default:
		*sg = segment{ends: s.reverse(p.Flow), seq: 1, ack: 1 + uint32(p.Ack), window: window(p.Rwnd),
			ece: p.ECE, tsVal: uint32(p.SentAt / time.Millisecond), tsEcr: uint32(p.Echo),
			sacks: p.Sacks(), sackBase: 1}
	}
	s.writeSegment(t, sg, f)
}
