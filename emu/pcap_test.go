package emu

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/leolab/leolab/capture"
	"github.com/leolab/leolab/internal/livetest"
	"github.com/leolab/leolab/result"
)

// pcapFrame is one IPv4 packet of a live capture.
type pcapFrame struct {
	at       time.Time
	src      string
	wire     int
	seq      uint32
	payload  int
	tcpData  bool
	captured int
}

func readPcap(t *testing.T, file string) []pcapFrame {
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
	var out []pcapFrame
	for {
		data, ci, err := r.ReadPacketData()
		if err != nil {
			break
		}
		p := gopacket.NewPacket(data, layers.LayerTypeIPv4, gopacket.DecodeOptions{Lazy: true, NoCopy: true})
		ip, _ := p.Layer(layers.LayerTypeIPv4).(*layers.IPv4)
		if ip == nil {
			continue // IPv6 (router solicitations of the TUNs)
		}
		fr := pcapFrame{at: ci.Timestamp, src: ip.SrcIP.String(), wire: ci.Length, captured: ci.CaptureLength}
		if tcp, ok := p.Layer(layers.LayerTypeTCP).(*layers.TCP); ok {
			fr.seq = tcp.Seq
			fr.payload = int(ip.Length) - int(ip.IHL)*4 - int(tcp.DataOffset)*4
			fr.tcpData = fr.payload > 0
		}
		out = append(out, fr)
	}
	return out
}

// TestLivePcap: a kernel CUBIC flow through the emulator with a capture.
// What the pump wrote into each namespace is, to the byte, what the result
// says the link delivered; every frame is stamped within the run; the
// sender's capture holds every transmission (the kernel's retransmissions
// are its segments below the highest sequence sent).
func TestLivePcap(t *testing.T) {
	needEmu(t)
	sc := parse(t, "version: 1\nname: pcap\nduration: 4s\npath: {profile: fixed, rate: 50Mbps, rtt: 20ms, queue: {limit_packets: 40}}\nflows: [{cca: cubic}]\n")
	livetest.Repeat(t, func(a *livetest.Attempt) {
		_, rc := liveConfig(t, sc, false)
		dir := t.TempDir()
		tap, err := capture.NewLive(dir)
		if err != nil {
			t.Fatal(err)
		}
		rc.Tap = tap
		start := time.Now()
		res := live(t, rc)
		if err := tap.Close(); err != nil {
			t.Fatal(err)
		}
		end := time.Now()
		a.Stall("pump gap max", time.Duration(res.Instrument["pump_gap_max_us"])*time.Microsecond, 50*time.Millisecond)
		if tap.Missed() != 0 {
			a.Errorf("%d packets missed by the capture ring", tap.Missed())
		}
		links := map[string]result.Link{}
		for _, l := range res.Links {
			links[l.Name] = l
		}
		server := readPcap(t, filepath.Join(dir, capture.ServerFile))
		client := readPcap(t, filepath.Join(dir, capture.ClientFile))
		// Downlink (server → client): the frames written into the client.
		var down, up int64
		for _, f := range client {
			if f.at.Before(start) || f.at.After(end) {
				a.Errorf("client frame at %v outside the run %v–%v", f.at, start, end)
				break
			}
			if f.src == ServerIP {
				down += int64(f.wire)
			}
			if f.captured > capture.SnapLen {
				a.Errorf("captured %d bytes > snap length", f.captured)
			}
		}
		for _, f := range server {
			if f.src == ClientIP {
				up += int64(f.wire)
			}
		}
		if down != links["downlink"].Delivered || up != links["uplink"].Delivered {
			a.Errorf("bytes written: down %d up %d; result downlink %d uplink %d", down, up, links["downlink"].Delivered, links["uplink"].Delivered)
		}
		// The server sends: its capture sees every transmission.
		var sent, resends int
		var next uint32
		for _, f := range server {
			if f.src != ServerIP || !f.tcpData {
				continue
			}
			sent++
			if sent > 1 && int32(f.seq-next) < 0 {
				resends++
			} else {
				next = f.seq + uint32(f.payload)
			}
		}
		flow := res.Flows[0]
		t.Logf("server sent %d data segments, %d below the highest; kernel retransmits %d; %d bytes down", sent, resends, flow.Retransmits, down)
		if sent == 0 || int64(resends) != flow.Retransmits {
			a.Errorf("capture resends %d, kernel retransmits %d", resends, flow.Retransmits)
		}
	})
}
