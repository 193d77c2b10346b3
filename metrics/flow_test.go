package metrics

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/result"
)

// TestStats: three 1 s intervals of 1, 2, 3 MB with 0, 1, 2 retransmits and
// srtt 30, 40, 50 ms (and one interval without an RTT sample).
func TestStats(t *testing.T) {
	f := result.Flow{StartS: 10, Intervals: []result.Interval{
		{T: 11, Bytes: 1e6, SRTTMs: 30},
		{T: 12, Bytes: 2e6, Retransmits: 1, SRTTMs: 40},
		{T: 13, Bytes: 3e6, Retransmits: 2, SRTTMs: 50},
		{T: 14, Bytes: 0},
	}}
	st := Stats(f)
	near(t, "throughput", st.ThroughputBps, 6e6*8/4)
	near(t, "retrans/GB", st.RetransPerGB, 3/6e-3)
	near(t, "inflation", st.RTTInflation, 40.0/30)
	if st.Bytes != 6e6 || st.Duration != 4*time.Second || st.MinRTT != 30*time.Millisecond ||
		st.MeanRTT != 40*time.Millisecond || st.P95RTT != 50*time.Millisecond {
		t.Errorf("stats %+v", st)
	}
	s := Series(f)
	if s[0].Dur != time.Second || s[2].ThroughputBps != 24e6 {
		t.Errorf("series %+v", s[:3])
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{15, 20, 35, 40, 50}
	// Nearest rank (Hyndman & Fan def. 1): p30 → ceil(1.5) = 2nd; p100 → 5th.
	for _, c := range []struct{ q, want float64 }{{0.3, 20}, {0.4, 20}, {0.5, 35}, {1, 50}, {0, 15}} {
		if got := Percentile(xs, c.q); got != c.want {
			t.Errorf("p%g = %g, want %g", 100*c.q, got, c.want)
		}
	}
}

// traceFlows reads the dataset's CSV traces as analyze does.
func traceFlows(t *testing.T) map[string]*iperf.Run {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "data", "starlink-iperf3", "traces")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	if len(paths) == 0 {
		if _, err := os.Stat(dir); err != nil {
			t.Skipf("dataset traces not present: %v", err)
		}
		t.Fatal("no traces")
	}
	runs := map[string]*iperf.Run{}
	for _, p := range paths {
		r, err := iperf.ReadTraceFile(p)
		if err != nil {
			t.Fatal(err)
		}
		runs[filepath.Base(p)] = r
	}
	return runs
}

// TestStatsReproduceTraceSummaries (issue 6, acceptance 2): the metrics of
// each trace's intervals reproduce the end summary in its first line —
// bytes exactly, mean RTT within 0.5% (the kernel averages every RTT
// sample, the trace holds one srtt per second).
func TestStatsReproduceTraceSummaries(t *testing.T) {
	for name, r := range traceFlows(t) {
		f := r.Flows()[0]
		f.BytesAcked, f.MeanRTTMs = 0, 0 // use the intervals only
		st := Stats(f)
		end := r.End.Streams[0]
		if st.Bytes != end.Sender.Bytes {
			t.Errorf("%s: bytes %d, end summary %d", name, st.Bytes, end.Sender.Bytes)
		}
		rel := math.Abs(float64(st.MeanRTT-end.MeanRTT)) / float64(end.MeanRTT)
		if rel > 0.005 {
			t.Errorf("%s: mean rtt %v, end summary %v (%.2f%%)", name, st.MeanRTT, end.MeanRTT, 100*rel)
		}
		if st.MinRTT != end.MinRTT {
			t.Errorf("%s: min rtt %v, end summary %v", name, st.MinRTT, end.MinRTT)
		}
		t.Logf("%s: %.1f Mbit/s, mean rtt %v (end %v, %.2f%%), inflation %.3f, p95 %v, %.0f retrans/GB",
			name, st.ThroughputBps/1e6, st.MeanRTT, end.MeanRTT, 100*rel, st.RTTInflation, st.P95RTT, st.RetransPerGB)
	}
}

func BenchmarkStats(b *testing.B) {
	f := result.Flow{}
	for i := range 300 {
		f.Intervals = append(f.Intervals, result.Interval{T: float64(i + 1), Bytes: 1e6, SRTTMs: 30 + float64(i%7)})
	}
	b.ReportAllocs()
	for b.Loop() {
		Stats(f)
	}
}
