package campaign

import (
	"math"
	"strings"
	"testing"
)

// RealRuns holds every run RealData averages, once: the Sydney downlink
// dedicated BBR cell has runs 1–5 whose mean is RealData's, and no run
// of the held-out Tokyo is embedded.
func TestRealRunsMatchRealData(t *testing.T) {
	runs, err := RealRuns()
	if err != nil {
		t.Fatal(err)
	}
	means, err := RealData()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	seen := map[int]bool{}
	for _, r := range runs {
		if strings.EqualFold(r.City, "tokyo") {
			t.Fatalf("a Tokyo run is embedded: %+v", r)
		}
		if r.Direction == "downlink" && !r.Concurrent && r.City == "Sydney" && r.CCA == "bbr" {
			if seen[r.Run] {
				t.Errorf("run %d twice", r.Run)
			}
			seen[r.Run] = true
			sum += r.SenderBps / 1e6
		}
	}
	m := means[Key{Kind: Dedicated, Direction: "downlink", City: "sydney", CCA: "bbr"}]
	if len(seen) != 5 || m.N != 5 || math.Abs(sum/5-m.ThroughputMbps) > 1e-9 {
		t.Errorf("%d runs with mean %.3f; RealData: %d runs, %.3f Mbit/s", len(seen), sum/5, m.N, m.ThroughputMbps)
	}
}
