package capture_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/capture"
	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
)

// runCaptured runs a scenario file on the simulator with a capture into dir.
func runCaptured(t *testing.T, file, dir string) (*result.Result, netsim.Spec) {
	t.Helper()
	_, spec, err := scenario.LoadSpec(file)
	if err != nil {
		t.Fatal(err)
	}
	tap, err := capture.NewSim(dir, &spec)
	if err != nil {
		t.Fatal(err)
	}
	spec.Tap = tap
	res, err := netsim.Run(spec)
	if err := tap.Close(); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return res, spec
}

// frame is one packet as tshark dissected it.
type frame struct {
	t                  time.Time
	frameLen, udpLen   int
	srcPort            int
	seq, tcpLen, ack   int64
	retrans, ooo, spur bool
}

// tsharkFrames dissects a capture with tshark (relative sequence numbers,
// its default).
func tsharkFrames(t *testing.T, tshark, file string) []frame {
	t.Helper()
	cmd := exec.Command(tshark, "-r", file, "-T", "fields", "-E", "separator=,",
		"-e", "frame.time_epoch", "-e", "frame.len", "-e", "udp.length", "-e", "tcp.srcport",
		"-e", "tcp.seq", "-e", "tcp.len", "-e", "tcp.ack",
		"-e", "tcp.analysis.retransmission", "-e", "tcp.analysis.out_of_order",
		"-e", "tcp.analysis.spurious_retransmission")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark -r %s: %v: %s", file, err, stderr.String())
	}
	var fs []frame
	num := func(s string) int64 {
		if s == "" {
			return 0
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("tshark field %q: %v", s, err)
		}
		return v
	}
	for line := range strings.Lines(string(out)) {
		c := strings.Split(strings.TrimRight(line, "\n"), ",")
		if len(c) != 10 {
			t.Fatalf("tshark line %q: want 10 fields", line)
		}
		sec, frac, _ := strings.Cut(c[0], ".")
		ns := num((frac + "000000000")[:9])
		fs = append(fs, frame{
			t: time.Unix(num(sec), ns).UTC(), frameLen: int(num(c[1])), udpLen: int(num(c[2])), srcPort: int(num(c[3])),
			seq: num(c[4]), tcpLen: num(c[5]), ack: num(c[6]),
			retrans: c[7] != "", ooo: c[8] != "", spur: c[9] != "",
		})
	}
	return fs
}

func need(t *testing.T, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		t.Skipf("%s not installed (apt-get install -y %s): %v", tool, tool, err)
	}
	return p
}

// Wireshark's out-of-order threshold when the capture holds no handshake
// RTT (epan/dissectors/packet-tcp.c, tcp_analyze_sequence_number:
// ooo_thres = 3 ms when ts_first_rtt is zero).
const oooThreshold = 3 * time.Millisecond

// TestTSharkReadsSimCapture: tshark reads the two ends' captures of a CUBIC
// run with losses and finds the result's data packets, retransmissions and
// bytes.
func TestTSharkReadsSimCapture(t *testing.T) {
	tshark := need(t, "tshark")
	dir := t.TempDir()
	res, spec := runCaptured(t, "../examples/pcap-cubic.yaml", dir)
	tcpFlow, cbr := res.Flows[0], res.Flows[1]
	if tcpFlow.Retransmits < 10 {
		t.Fatalf("the scenario must lose packets: %d retransmits", tcpFlow.Retransmits)
	}
	epoch, _ := time.Parse(time.RFC3339, res.EpochUTC)
	sender := tsharkFrames(t, tshark, filepath.Join(dir, capture.ServerFile))
	receiver := tsharkFrames(t, tshark, filepath.Join(dir, capture.ClientFile))

	// At the sender's end nothing reorders: a data segment starting below
	// the highest byte sent so far is a retransmission. tshark labels it
	// "retransmission", or "out_of_order" when it comes within
	// oooThreshold of the segment that last advanced the sequence and does
	// not end there.
	var data, resends, wantOOO, gotRetrans, gotOOO, spurious, udp int
	var next, maxAck int64
	var nextAt time.Time
	for _, f := range sender {
		if f.t.Before(epoch) || f.t.After(epoch.Add(spec.Duration)) {
			t.Fatalf("frame at %v outside the run [%v, +%v]", f.t, epoch, spec.Duration)
		}
		switch {
		case f.udpLen > 0:
			udp++
		case f.srcPort == 5201:
			maxAck = max(maxAck, f.ack)
		case f.tcpLen > 0:
			data++
			if f.seq < next {
				resends++
				if f.t.Sub(nextAt) < oooThreshold && f.seq+f.tcpLen != next {
					wantOOO++
				}
			} else {
				next, nextAt = f.seq+f.tcpLen, f.t
			}
			if f.retrans {
				gotRetrans++
			}
			if f.ooo {
				gotOOO++
			}
			if f.spur {
				spurious++
			}
		}
	}
	if resends != int(tcpFlow.Retransmits) || gotRetrans+gotOOO != resends || gotOOO != wantOOO || spurious != 0 {
		t.Errorf("retransmissions: result %d; capture %d, tshark retransmission %d + out_of_order %d (want %d) + spurious %d",
			tcpFlow.Retransmits, resends, gotRetrans, gotOOO, wantOOO, spurious)
	}
	t.Logf("retransmits %d: tshark retransmission %d, out_of_order %d", tcpFlow.Retransmits, gotRetrans, gotOOO)
	if int64(data) != tcpFlow.SentPackets {
		t.Errorf("data packets at the sender: tshark %d, result sent_packets %d", data, tcpFlow.SentPackets)
	}
	// Bytes: the highest ACK the sender saw is bytes_acked + 1 (relative).
	if maxAck-1 != tcpFlow.BytesAcked {
		t.Errorf("bytes: highest ACK at the sender %d - 1, result bytes_acked %d", maxAck, tcpFlow.BytesAcked)
	}
	if int64(udp) != cbr.SentPackets {
		t.Errorf("probe datagrams at the sender: %d, result sent_packets %d", udp, cbr.SentPackets)
	}

	// At the receiver's end: what the forward link delivered, to the byte.
	var rData, rUDP int
	var delivered int64
	for _, f := range receiver {
		switch {
		case f.udpLen > 0:
			rUDP++
			delivered += int64(f.frameLen)
		case f.tcpLen > 0:
			rData++
			delivered += int64(f.frameLen)
		}
	}
	fwd := res.Links[0]
	if delivered != fwd.Delivered {
		t.Errorf("bytes at the receiver's end %d, result links[0].delivered_bytes %d", delivered, fwd.Delivered)
	}
	// Sent = delivered + dropped + still in the link at the end, which
	// holds at most its queue (200), the packet in service and the delay
	// line's 100 Mbit/s × 25 ms of 1000–1500-byte packets (313).
	d := fwd.Drops
	drops := d.Head + d.Tail + d.AQM + d.Random + d.Outage + d.Policer
	inLink := int64(data+udp) - int64(rData+rUDP) - drops
	if limit := int64(200 + 1 + 313); inLink < 0 || inLink > limit {
		t.Errorf("packets sent %d - delivered %d - dropped %d = %d: want in [0, %d]", data+udp, rData+rUDP, drops, inLink, limit)
	}
	t.Logf("data packets: %d sent (%d delivered, %d dropped, %d in the link at the end); %d bytes delivered", data, rData, drops, inLink, delivered)
}

// TestTcptraceCountsRetransmissions: tcptrace's counts of data packets and
// of retransmitted ones (by sequence, as ours) are the result's.
func TestTcptraceCountsRetransmissions(t *testing.T) {
	tcptrace := need(t, "tcptrace")
	dir := t.TempDir()
	res, _ := runCaptured(t, "../examples/pcap-cubic.yaml", dir)
	out, err := exec.Command(tcptrace, "-l", filepath.Join(dir, capture.ServerFile)).CombinedOutput()
	if err != nil {
		t.Fatalf("tcptrace: %v: %s", err, out)
	}
	m := regexp.MustCompile(`rexmt data pkts:\s+(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("tcptrace printed no rexmt data pkts:\n%s", out)
	}
	if got, _ := strconv.ParseInt(string(m[1]), 10, 64); got != res.Flows[0].Retransmits {
		t.Errorf("tcptrace rexmt data pkts %d, result retransmits %d", got, res.Flows[0].Retransmits)
	}
	// The first connection's (a->b, the sender's data) count comes first.
	m = regexp.MustCompile(`actual data pkts:\s+(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("tcptrace printed no actual data pkts:\n%s", out)
	}
	if got, _ := strconv.ParseInt(string(m[1]), 10, 64); got != res.Flows[0].SentPackets {
		t.Errorf("tcptrace actual data pkts %d, result sent_packets %d", got, res.Flows[0].SentPackets)
	}
	t.Logf("tcptrace: %s data packets, result sent_packets %d, retransmits %d", m[1], res.Flows[0].SentPackets, res.Flows[0].Retransmits)
}

// TestCaptureDeterministic: the same scenario and seed give byte-identical
// captures.
func TestCaptureDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	runCaptured(t, "testdata/short.yaml", a)
	runCaptured(t, "testdata/short.yaml", b)
	for _, name := range []string{capture.ServerFile, capture.ClientFile} {
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, _ := os.ReadFile(filepath.Join(b, name))
		if len(x) < 10000 || !bytes.Equal(x, y) {
			t.Errorf("%s: %d and %d bytes, not identical", name, len(x), len(y))
		}
	}
}
