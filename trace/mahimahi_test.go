package trace

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadMahimahiErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"1\n2\n1\n", "bw.txt:3: 1 ms after 2 ms on line 2: timestamps must be non-decreasing"},
		{"1\n\n2\n", "bw.txt:2: empty line"},
		{"1\nx\n", `bw.txt:2: "x" is not a millisecond (allowed: an integer in [0, 604800000]`},
		{"-3\n", `bw.txt:1: "-3" is not a millisecond`},
		{"1.5\n", `bw.txt:1: "1.5" is not a millisecond`},
		{"", "bw.txt: no timestamps"},
		{"0\n0\n", "bw.txt:2: the trace must last a nonzero time"},
		{"604800001\n", "bw.txt:1: 604800001 ms: beyond 604800000 ms"},
		{strings.Repeat("1", 300) + "\n", "bw.txt:1: line longer than 256 bytes"},
	}
	for _, c := range cases {
		_, err := ReadMahimahi("bw.txt", strings.NewReader(c.in))
		var te *Error
		if !errors.As(err, &te) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want prefix %q", c.in, err, c.want)
		}
	}
}

func TestMahimahiRoundTrip(t *testing.T) {
	in := []uint32{0, 1, 1, 1, 7, 20}
	var buf bytes.Buffer
	if err := WriteMahimahi(&buf, in); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "0\n1\n1\n1\n7\n20\n" {
		t.Fatalf("wrote %q", buf.String())
	}
	o, err := ReadMahimahi("x", strings.NewReader(buf.String()+"\r\n"[:0]))
	if err != nil {
		t.Fatal(err)
	}
	if len(o.MS) != len(in) || o.Period() != 20*time.Millisecond {
		t.Fatalf("read %v (period %v)", o.MS, o.Period())
	}
	// CRLF line ends (a trace edited on Windows) read the same.
	o2, err := ReadMahimahi("x", strings.NewReader("0\r\n1\r\n20\r\n"))
	if err != nil || len(o2.MS) != 3 {
		t.Fatalf("CRLF: %v %v", o2, err)
	}
	if err := WriteMahimahi(&buf, []uint32{3, 2}); err == nil {
		t.Error("WriteMahimahi accepted decreasing times")
	}
}

// TestReadLeoReplayerExample reads the real example: 487,652 opportunities
// over 120.052 s, ~48.9 Mbit/s at 1504 bytes each.
func TestReadLeoReplayerExample(t *testing.T) {
	o, err := ReadMahimahiFile(exampleFile(t, "bw_example.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(o.MS) != 487652 || o.Period() != 120052*time.Millisecond {
		t.Fatalf("%d opportunities over %v", len(o.MS), o.Period())
	}
	want := 487652.0 * 1504 * 8 / 120.052
	if r := o.MeanRateBps(OpportunityBytes); math.Abs(r-want) > 1e-6*want {
		t.Errorf("mean rate %g, want %g", r, want)
	}
	d, err := ReadDelayFile(exampleFile(t, "delay_example.txt"), DelayInterval)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.D) != 11999 || d.D[0] != 12*time.Millisecond {
		t.Errorf("%d delays, first %v", len(d.D), d.D[0])
	}
}

func TestReadFileLimits(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadMahimahiFile(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	if _, err := ReadMahimahiFile("/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("/dev/zero: %v", err)
	}
	big := filepath.Join(dir, "big")
	f, _ := os.Create(big)
	f.Truncate(MaxDelayBytes + 1)
	f.Close()
	if _, err := ReadDelayFile(big, DelayInterval); err == nil || !strings.Contains(err.Error(), "larger than the 64 MiB") {
		t.Errorf("big file: %v", err)
	}
}

func FuzzReadMahimahi(f *testing.F) {
	f.Add([]byte("1\n1\n3\n"))
	f.Add([]byte("0\n"))
	f.Add([]byte("5\n4\n"))
	f.Add([]byte("\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := ReadMahimahi("fuzz", bytes.NewReader(data))
		if err != nil {
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("error without file and line: %v", err)
			}
			return
		}
		if len(o.MS) > len(data)/2+1 {
			t.Fatalf("%d opportunities from %d bytes", len(o.MS), len(data))
		}
		for i := 1; i < len(o.MS); i++ {
			if o.MS[i] < o.MS[i-1] {
				t.Fatalf("accepted decreasing times %v", o.MS)
			}
		}
		if o.Period() <= 0 {
			t.Fatalf("period %v", o.Period())
		}
		var buf bytes.Buffer
		if err := WriteMahimahi(&buf, o.MS); err != nil {
			t.Fatalf("cannot write what was read: %v", err)
		}
	})
}
