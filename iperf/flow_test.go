package iperf

import (
	"math"
	"path/filepath"
	"testing"
)

// TestFlows checks the per-stream conversion against numbers computed by
// hand from clean_P2.json: each stream moves 1, 2, 3 MB in three 1 s
// intervals with 0, 1, 2 retransmits and srtt 30, 31, 32 ms.
func TestFlows(t *testing.T) {
	r, err := ReadFile(filepath.Join("testdata", "clean_P2.json"))
	if err != nil {
		t.Fatal(err)
	}
	fs := r.Flows()
	if len(fs) != 2 {
		t.Fatalf("%d flows", len(fs))
	}
	for _, f := range fs {
		checks := []struct {
			name      string
			got, want float64
		}{
			{"bytes", float64(f.BytesAcked), 6e6},
			{"throughput Mbit/s", f.ThroughputMbps, 6e6 * 8 / 3 / 1e6},
			{"retransmits", float64(f.Retransmits), 3},
			{"retrans/GB", f.RetransPerGB, 3 / 6e-3},
			{"min rtt ms", f.MinRTTMs, 30},
			{"mean rtt ms", f.MeanRTTMs, 31},
			{"p95 rtt ms", f.P95RTTMs, 32}, // nearest rank ceil(0.95*3) = 3rd
			{"rtt inflation", f.RTTInflation, 31.0 / 30},
			{"end s", f.EndS, 3},
			{"interval 1 srtt", f.Intervals[1].SRTTMs, 31},
		}
		for _, c := range checks {
			if math.Abs(c.got-c.want) > 1e-9*math.Abs(c.want) {
				t.Errorf("flow %d %s = %g, want %g", f.ID, c.name, c.got, c.want)
			}
		}
		if f.CCA != "bbr" {
			t.Errorf("cca %q", f.CCA)
		}
	}
}

// TestFlowsFallback: without an end summary, totals come from the intervals.
func TestFlowsFallback(t *testing.T) {
	r, err := ReadFile(filepath.Join("testdata", "missing.json"))
	if err != nil {
		t.Fatal(err)
	}
	f := r.Flows()[0]
	if f.BytesAcked != 6e6 || f.Retransmits != 3 || f.MinRTTMs != 30 || f.MeanRTTMs != 31 || f.ThroughputMbps != 16 {
		t.Errorf("fallback flow %+v", f)
	}
}

func TestNearestRank(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	for _, c := range []struct{ q, want float64 }{{0.95, 10}, {0.5, 5}, {0.1, 1}, {0, 1}} {
		if got := nearestRank(xs, c.q); got != c.want {
			t.Errorf("q=%g: %g, want %g", c.q, got, c.want)
		}
	}
	if nearestRank(nil, 0.5) != 0 {
		t.Error("empty")
	}
}
