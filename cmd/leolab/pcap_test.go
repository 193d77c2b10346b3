package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sim --pcap DIR writes both ends' pcap files (the headers' content is
// tested in package capture, with tshark).
func TestSimPcap(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pcap")
	sc := writeFile(t, "s.yaml", okScenario)
	if code, _, stderr := runCLI("sim", "-f", sc, "--pcap", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// pcap's nanosecond magic, little-endian (pcapgo's NewWriterNanos).
	magic := []byte{0x4d, 0x3c, 0xb2, 0xa1}
	for _, name := range []string{"server.pcap", "client.pcap"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		// 3 s of 20 Mbit/s: ~5000 data segments of ≥ 52 + 16 bytes each.
		if !bytes.HasPrefix(b, magic) || len(b) < 5000*68 {
			t.Errorf("%s: %d bytes, magic % x", name, len(b), b[:min(4, len(b))])
		}
	}
	file := writeFile(t, "not-a-dir", "x")
	code, _, stderr := runCLI("sim", "-f", sc, "--pcap", file)
	if code != 2 || !strings.Contains(stderr, "--pcap") {
		t.Errorf("--pcap onto a file: exit %d, stderr %q", code, stderr)
	}
}
