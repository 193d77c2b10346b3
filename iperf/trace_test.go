package iperf

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// dataDir is the shared Starlink dataset (DESIGN.md: ../shared/data).
func dataDir(t *testing.T) string {
	t.Helper()
	d := filepath.Join("..", "..", "shared", "data", "starlink-iperf3")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("dataset not present at %s: %v", d, err)
	}
	return d
}

// TestRealTraces checks that the per-interval rows of each real trace
// reproduce the end summary of its first line: bytes exactly, mean RTT
// within 0.5% (the kernel's mean is over every ACK, the rows hold one srtt
// per second), and that every interval was read.
func TestRealTraces(t *testing.T) {
	dir := filepath.Join(dataDir(t), "traces")
	tests := []struct {
		file    string
		reverse bool
		cc      string
		start   time.Time
	}{
		{"downlink_Sydney_bbr_run1.csv", true, "bbr", time.Date(2026, 3, 30, 6, 56, 31, 0, time.UTC)},
		{"downlink_Sydney_cubic_run1.csv", true, "cubic", time.Date(2026, 3, 30, 11, 15, 22, 0, time.UTC)},
		{"uplink_Sydney_bbr_run1.csv", false, "bbr", time.Date(2026, 3, 28, 3, 37, 33, 0, time.UTC)},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			r, err := ReadTraceFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Intervals) != 300 || r.Params.Reverse != tc.reverse || r.SenderCC != tc.cc || !r.Start.Equal(tc.start) {
				t.Fatalf("%d intervals, reverse %v, cc %q, start %v", len(r.Intervals), r.Params.Reverse, r.SenderCC, r.Start)
			}
			if !strings.HasPrefix(r.Source, "MPTCP-FreeBSD/tcp-cc-starlink:") {
				t.Errorf("source %q", r.Source)
			}
			var sum int64
			var rtt float64
			for _, iv := range r.Intervals {
				sum += iv.Streams[0].Bytes
				rtt += float64(iv.Streams[0].RTT)
			}
			end := r.End.Streams[0]
			if sum != end.Sender.Bytes {
				t.Errorf("bytes: rows sum to %d, first line says %d", sum, end.Sender.Bytes)
			}
			mean := rtt / float64(len(r.Intervals))
			if rel := math.Abs(mean-float64(end.MeanRTT)) / float64(end.MeanRTT); rel > 0.005 {
				t.Errorf("mean rtt: rows %.0f µs, first line %v (%.2f%%)", mean/1e3, end.MeanRTT, 100*rel)
			}
			if len(r.Warnings) != 0 {
				t.Errorf("warnings on a clean trace: %v", r.Warnings)
			}
			// The receive window the sender saw (snd_wnd) reaches the
			// result's rwnd_bytes, row for row (seed 003's state uses it).
			f := r.Flows()[0]
			for k, iv := range f.Intervals {
				if w := r.Intervals[k].Streams[0].SndWnd; iv.RWndBytes != w || w <= 0 {
					t.Fatalf("interval %d: rwnd_bytes %d, snd_wnd %d (want equal, > 0)", k, iv.RWndBytes, w)
				}
			}
		})
	}
}

func TestReadTraceCrafted(t *testing.T) {
	const head = "# source=x; version=iperf 3.16; start.timestamp.time=Sat, 28 Mar 2026 03:37:33 GMT; " +
		"start.test_start.reverse=0; start.test_start.duration=2; end.sender_tcp_congestion=bbr2; " +
		"end.streams[0].sender: bytes=300 retransmits=1 min_rtt=20000 mean_rtt=25000 max_rtt=30000\n"
	// bbr2 uplink files lack snd_wnd: columns are found by name.
	good := head + "start,end,bytes,retransmits,rtt\n0,1,100,1,20000\n1,2,200,0,30000\n"
	r, err := ReadTrace("good", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	f := r.Flows()[0]
	if f.BytesAcked != 300 || f.Retransmits != 1 || f.MeanRTTMs != 25 || f.Intervals[1].SRTTMs != 30 || f.CCA != "bbr2" {
		t.Errorf("flow %+v", f)
	}
	bad := []struct{ name, text, want string }{
		{"noprov", "start,end,bytes\n", "noprov:1: want a \"# source=...\""},
		{"nocol", head + "start,end\n0,1\n", "nocol:2: header lacks column \"bytes\""},
		{"badnum", head + "start,end,bytes\n0,1,100\n1,2,x\n", "badnum:4: column bytes"},
		{"badprov", "# start.test_start.duration=abc\nstart,end,bytes\n", "badprov:1: provenance start.test_start.duration"},
	}
	for _, tc := range bad {
		if _, err := ReadTrace(tc.name, strings.NewReader(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
