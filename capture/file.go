package capture

import (
	"bufio"
	"fmt"
	"os"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// File-writing limits.
const (
	// SnapLen is the most bytes of a packet a capture keeps: room for a
	// full IPv4 header (60 bytes, RFC 791 IHL 15) and a full TCP header
	// (60 bytes, RFC 9293 data offset 15). Payloads are not kept.
	SnapLen = 128
	// bufSize is each file's write buffer: ~2000 headers per write(2).
	bufSize = 256 << 10
)

// File is one pcap file (nanosecond timestamps, raw IPv4 link type), written
// through a fixed buffer. Its first write error is kept and returned by
// Close; later writes are skipped.
type File struct {
	path string
	f    *os.File
	bw   *bufio.Writer
	w    *pcapgo.Writer
	err  error
	// Packets counts the packets written.
	Packets int64
}

// Create creates (truncates) the pcap file at path and writes its header.
func Create(path string) (*File, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("pcap: %w", err)
	}
	bw := bufio.NewWriterSize(f, bufSize)
	w := pcapgo.NewWriterNanos(bw)
	// LINKTYPE_RAW (101): packets begin with the IP header, as a TUN
	// device (IFF_NO_PI) hands them over.
	if err := w.WriteFileHeader(SnapLen, layers.LinkTypeRaw); err != nil {
		f.Close()
		return nil, fmt.Errorf("pcap %s: %w", path, err)
	}
	return &File{path: path, f: f, bw: bw, w: w}, nil
}

// Write writes one packet seen at t: b holds its first bytes (at most
// SnapLen are kept), wire its length on the wire.
func (fl *File) Write(t time.Time, b []byte, wire int) {
	if fl.err != nil {
		return
	}
	if len(b) > SnapLen {
		b = b[:SnapLen]
	}
	ci := gopacket.CaptureInfo{Timestamp: t, CaptureLength: len(b), Length: max(wire, len(b))}
	if err := fl.w.WritePacket(ci, b); err != nil {
		fl.err = fmt.Errorf("pcap %s: %w", fl.path, err)
		return
	}
	fl.Packets++
}

// Close flushes and closes the file; it returns the first error of any
// write.
func (fl *File) Close() error {
	err := fl.err
	if e := fl.bw.Flush(); e != nil && err == nil {
		err = fmt.Errorf("pcap %s: %w", fl.path, e)
	}
	if e := fl.f.Close(); e != nil && err == nil {
		err = fmt.Errorf("pcap %s: %w", fl.path, e)
	}
	return err
}
