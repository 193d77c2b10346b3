package iperf

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func warned(r *Run, path, substr string) bool {
	for _, w := range r.Warnings {
		if strings.HasPrefix(w.Path, path) && strings.Contains(w.Reason, substr) {
			return true
		}
	}
	return false
}

func TestParseQuirks(t *testing.T) {
	tests := []struct {
		file    string
		streams int
		bytes   int64 // stream 0 end bytes
		warns   [][2]string
		check   func(*testing.T, *Run)
	}{
		{file: "clean_P2.json", streams: 2, bytes: 6000000, check: func(t *testing.T, r *Run) {
			if len(r.Warnings) != 0 || r.TrailerBytes != 0 {
				t.Errorf("clean file: warnings %v, trailer %d", r.Warnings, r.TrailerBytes)
			}
			if r.Params.NumStreams != 2 || r.Params.Duration != 3*time.Second || r.Params.Reverse {
				t.Errorf("params %+v", r.Params)
			}
			s := r.Intervals[2].Streams[1]
			if s.Bytes != 3000000 || s.Retransmits != 2 || s.RTT != 32*time.Millisecond || s.SndCwnd != 100000 || !s.TCPInfo {
				t.Errorf("interval 2 stream 1: %+v", s)
			}
			if want := time.Date(2026, 3, 30, 6, 56, 31, 0, time.UTC); !r.Start.Equal(want) {
				t.Errorf("start %v, want %v", r.Start, want)
			}
		}},
		{file: "trailer.json", streams: 1, bytes: 6000000,
			warns: [][2]string{{"trailer", "1 error documents"}},
			check: func(t *testing.T, r *Run) {
				if len(r.TrailerErrors) != 1 || r.TrailerErrors[0] != "interrupt - the server has terminated" {
					t.Errorf("trailer errors %q", r.TrailerErrors)
				}
				if !r.Params.Reverse || r.End.Streams[0].Receiver.Bytes != 0 {
					t.Errorf("reverse %v, receiver bytes %d", r.Params.Reverse, r.End.Streams[0].Receiver.Bytes)
				}
			}},
		{file: "error_inside.json", streams: 1, bytes: 6500000,
			warns: [][2]string{{"error", "after 4 zero-byte tail intervals"}, {"intervals", "run lasted 8.000 s, 3 s asked"}},
			check: func(t *testing.T, r *Run) {
				if r.Error != "interrupt - the server has terminated" || len(r.Intervals) != 8 {
					t.Errorf("error %q, %d intervals", r.Error, len(r.Intervals))
				}
			}},
		{file: "missing.json", streams: 1, bytes: 6000000,
			warns: [][2]string{{"start.timestamp", "missing"}, {"end", "missing"}},
			check: func(t *testing.T, r *Run) {
				if !r.Start.IsZero() || r.Intervals[0].Streams[0].SndWnd != 0 {
					t.Errorf("start %v, snd_wnd %d", r.Start, r.Intervals[0].Streams[0].SndWnd)
				}
			}},
		{file: "absurd.json", streams: 1, bytes: 6000000,
			warns: [][2]string{
				{"end.streams[0].sender.max_snd_cwnd", "exceeds the largest socket buffer"},
				{"end.streams[0].sender.max_rtt", "11.9s is implausible"},
				{"intervals[0].streams[0].snd_cwnd", "exceeds"},
			}},
		{file: "receiver.json", streams: 1, bytes: 6000000, check: func(t *testing.T, r *Run) {
			if r.Intervals[0].Streams[0].TCPInfo || r.End.Streams[0].TCPInfo {
				t.Error("receiver-side log marked as having tcp_info")
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			r, err := ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.NumStreams(); got != tc.streams {
				t.Errorf("streams %d, want %d", got, tc.streams)
			}
			if got := r.Flows()[0].BytesAcked; got != tc.bytes {
				t.Errorf("bytes %d, want %d", got, tc.bytes)
			}
			for _, w := range tc.warns {
				if !warned(r, w[0], w[1]) {
					t.Errorf("no warning %q at %s; have %v", w[1], w[0], r.Warnings)
				}
			}
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	trunc, err := os.ReadFile("testdata/truncated.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ file, want string }{
		{"truncated.json", fmt.Sprintf("testdata/truncated.json: byte %d: truncated", len(trunc))},
		{"notjson.txt", "testdata/notjson.txt: byte 1: not valid JSON"},
		{"udp.json", "protocol \"UDP\": only TCP"},
		{"error_only.json", "reported an error and no data: \"unable to connect"},
		{"typeerr.json", "byte 23: field \"start.version\": JSON number where string expected"},
	}
	for _, tc := range tests {
		_, err := ReadFile(filepath.Join("testdata", tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.file, err, tc.want)
		}
	}
	if _, err := Parse("empty", []byte("  \n")); err == nil || !strings.Contains(err.Error(), "empty file") {
		t.Errorf("empty: %v", err)
	}
}

// TestLoopbackIperf3 runs Debian's iperf3 over loopback (forward and -R, two
// streams) and checks the reader against iperf3's own end summary.
func TestLoopbackIperf3(t *testing.T) {
	bin, err := exec.LookPath("iperf3")
	if err != nil {
		t.Skip("iperf3 not installed (apt-get install iperf3): cannot test against real output")
	}
	for _, reverse := range []bool{false, true} {
		t.Run(fmt.Sprintf("reverse=%v", reverse), func(t *testing.T) {
			out := runIperf3(t, bin, reverse)
			r, err := Parse("loopback", out)
			if err != nil {
				t.Fatal(err)
			}
			if r.Params.Reverse != reverse || r.NumStreams() != 2 || len(r.Intervals) < 2 {
				t.Fatalf("reverse %v, streams %d, intervals %d", r.Params.Reverse, r.NumStreams(), len(r.Intervals))
			}
			for i, f := range r.Flows() {
				// iperf3 -b paces each stream at 20 Mbit/s; the achieved
				// mean is within iperf3's 1 s bursting of the target.
				if f.ThroughputMbps < 15 || f.ThroughputMbps > 25 {
					t.Errorf("stream %d: %.2f Mbit/s, want ~20", i, f.ThroughputMbps)
				}
				var sum int64
				for _, iv := range f.Intervals {
					sum += iv.Bytes
				}
				// The last partial interval may be dropped by iperf3; the
				// intervals cover all but at most one 128 KiB block per 2 s.
				if d := f.BytesAcked - sum; d < 0 || d > 4*writeBlksize {
					t.Errorf("stream %d: end bytes %d, intervals sum %d", i, f.BytesAcked, sum)
				}
				if !reverse && (f.MinRTTMs <= 0 || f.MinRTTMs > f.MeanRTTMs || f.MeanRTTMs > 50) {
					t.Errorf("stream %d: rtt min %.3f mean %.3f ms", i, f.MinRTTMs, f.MeanRTTMs)
				}
			}
			for _, w := range r.Warnings {
				t.Errorf("unexpected warning on real output: %v", w)
			}
		})
	}
}

func runIperf3(t *testing.T, bin string, reverse bool) []byte {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "-s", "-1", "-p", port)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Wait()
	args := []string{"-c", "127.0.0.1", "-p", port, "-J", "-t", "2", "-P", "2", "-b", "20M"}
	if reverse {
		args = append(args, "-R")
	}
	var out []byte
	for try := 0; try < 20; try++ { // wait for the server to listen
		out, err = exec.CommandContext(ctx, bin, args...).Output()
		if err == nil && !bytes.Contains(out, []byte("unable to connect")) {
			return out
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("iperf3 client: %v\n%s", err, out)
	return nil
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"clean_P2.json", "trailer.json", "error_inside.json", "absurd.json", "truncated.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse("fuzz", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "iperf fuzz") {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		for _, f := range r.Flows() {
			if f.BytesAcked < 0 || f.Retransmits < 0 {
				t.Errorf("negative totals: %+v", f)
			}
		}
	})
}
