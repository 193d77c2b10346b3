package iperf

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/leolab/leolab/result"
)

func sampleFlow() result.Flow {
	f := result.Flow{ID: 3, CCA: "cubic", StartS: 30, EndS: 33, BytesAcked: 3_750_000,
		Retransmits: 7, MinRTTMs: 26.5, MeanRTTMs: 31.25}
	for i, b := range []int64{1_000_000, 1_250_000, 1_500_000} {
		f.Intervals = append(f.Intervals, result.Interval{T: 31 + float64(i), Bytes: b,
			Retransmits: int64(i * 3 / 2), CWndBytes: 100_000 + 1000*i, SRTTMs: 28.125 + float64(i), RTTVarMs: 1.5})
	}
	return f
}

// TestWriteRoundTrip: writer → reader gives back the flow's figures.
// max_rtt is max(largest interval srtt, mean): 31.25 ms here.
func TestWriteRoundTrip(t *testing.T) {
	f := sampleFlow()
	epoch := time.Date(2026, 3, 30, 6, 56, 0, 0, time.UTC)
	var buf bytes.Buffer
	if err := Write(&buf, f, WriteOptions{Epoch: epoch, Reverse: true}); err != nil {
		t.Fatal(err)
	}
	r, err := Parse("roundtrip", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings: %v", r.Warnings)
	}
	if !r.Start.Equal(epoch.Add(30*time.Second)) || !r.Params.Reverse || r.Params.Duration != 3*time.Second {
		t.Errorf("start %v, reverse %v, duration %v", r.Start, r.Params.Reverse, r.Params.Duration)
	}
	g := r.Flows()[0]
	if g.BytesAcked != f.BytesAcked || g.Retransmits != f.Retransmits || g.CCA != f.CCA ||
		g.MinRTTMs != f.MinRTTMs || g.MeanRTTMs != f.MeanRTTMs {
		t.Errorf("totals: got %+v", g)
	}
	// 3.75 MB in 3 s = 10 Mbit/s.
	if math.Abs(g.ThroughputMbps-10) > 1e-9 {
		t.Errorf("throughput %g Mbit/s, want 10", g.ThroughputMbps)
	}
	for i, iv := range g.Intervals {
		w := f.Intervals[i]
		// Times are relative to the flow start; RTTs round to whole µs.
		if iv.T != w.T-f.StartS || iv.Bytes != w.Bytes || iv.Retransmits != w.Retransmits ||
			iv.CWndBytes != w.CWndBytes || math.Abs(iv.SRTTMs-w.SRTTMs) > 0.0005 || iv.RTTVarMs != w.RTTVarMs {
			t.Errorf("interval %d: got %+v, want %+v", i, iv, w)
		}
	}
	if r.End.Streams[0].MaxRTT != 31250*time.Microsecond || r.End.Streams[0].MaxSndCwnd != 102000 {
		t.Errorf("end: %+v", r.End.Streams[0])
	}
}

// TestWriteKeys checks the iperf 3.16 keys other tools read.
func TestWriteKeys(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, sampleFlow(), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	st := doc["intervals"].([]any)[0].(map[string]any)["streams"].([]any)[0].(map[string]any)
	for _, k := range []string{"bytes", "bits_per_second", "retransmits", "snd_cwnd", "rtt", "rttvar"} {
		if _, ok := st[k]; !ok {
			t.Errorf("intervals[0].streams[0] lacks %q", k)
		}
	}
	end := doc["end"].(map[string]any)
	snd := end["streams"].([]any)[0].(map[string]any)["sender"].(map[string]any)
	for _, k := range []string{"bytes", "retransmits", "max_snd_cwnd", "min_rtt", "mean_rtt", "max_rtt"} {
		if _, ok := snd[k]; !ok {
			t.Errorf("end.streams[0].sender lacks %q", k)
		}
	}
	if end["sender_tcp_congestion"] != "cubic" {
		t.Errorf("sender_tcp_congestion %v", end["sender_tcp_congestion"])
	}
}

// TestWriteRealTrace: a real trace → Flow → JSON → Flow keeps its numbers.
func TestWriteRealTrace(t *testing.T) {
	r, err := ReadTraceFile(filepath.Join(dataDir(t), "traces", "downlink_Sydney_bbr_run1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	f := r.Flows()[0]
	dir := t.TempDir()
	paths, err := WriteDir(dir, result.Result{EpochUTC: r.Start.Format(time.RFC3339),
		Path: result.Path{Direction: "downlink"}, Flows: []result.Flow{f}})
	if err != nil || len(paths) != 1 {
		t.Fatal(err, paths)
	}
	back, err := ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	g := back.Flows()[0]
	if g.BytesAcked != f.BytesAcked || g.Retransmits != f.Retransmits || g.MeanRTTMs != f.MeanRTTMs ||
		len(g.Intervals) != len(f.Intervals) || !back.Start.Equal(r.Start) || !back.Params.Reverse {
		t.Errorf("round trip changed the flow: %+v vs %+v", g.BytesAcked, f.BytesAcked)
	}
	if math.Abs(g.P95RTTMs-f.P95RTTMs) > 0.001 {
		t.Errorf("p95 %g vs %g", g.P95RTTMs, f.P95RTTMs)
	}
}

func BenchmarkWrite(b *testing.B) {
	f := sampleFlow()
	for len(f.Intervals) < 300 {
		f.Intervals = append(f.Intervals, f.Intervals[len(f.Intervals)%3])
	}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, f, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
