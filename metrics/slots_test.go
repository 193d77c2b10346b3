package metrics

import (
	"strings"
	"testing"
	"time"
)

// TestSlotProfileAlignment: an epoch at :10 UTC puts t = 0 two seconds
// before the :12 boundary, so the interval [2 s, 3 s) is bin 0 and [1, 2) is
// bin 14; a 15 s-periodic loss at t = 16.5 s lands in bin 14 too.
func TestSlotProfileAlignment(t *testing.T) {
	epoch := time.Date(2026, 3, 30, 6, 56, 10, 0, time.UTC)
	var s []Sample
	for i := range 30 {
		retr := int64(0)
		if i == 1 || i == 16 {
			retr = 10
		}
		s = append(s, Sample{T: time.Duration(i+1) * time.Second, Dur: time.Second, Bytes: int64(i), Retransmits: retr})
	}
	bins := SlotProfile(s, epoch)
	if bins[0].Bytes != 2+17 || bins[14].Bytes != 1+16 || bins[14].Retransmits != 20 || PeakRetransBin(bins) != 14 {
		t.Errorf("bins %+v", bins)
	}
	for i, b := range bins {
		if b.Intervals != 2 {
			t.Errorf("bin %d: %d intervals, want 2", i, b.Intervals)
		}
	}
}

// TestSlotProfileSydneyDownlink (issue 6, acceptance 5): the real Sydney
// downlink traces show their retransmission peak in the second before each
// boundary (bin 14), the Starlink reconfiguration signature (seed 001), by
// a clear margin over the slot's other seconds.
func TestSlotProfileSydneyDownlink(t *testing.T) {
	for name, r := range traceFlows(t) {
		if !strings.HasPrefix(name, "downlink_Sydney") {
			continue
		}
		bins := SlotProfile(Series(r.Flows()[0]), r.Start)
		peak := PeakRetransBin(bins)
		var rest float64
		for i, b := range bins {
			if i != 14 {
				rest = max(rest, b.RetransMean)
			}
		}
		t.Logf("%s: retransmits per bin %v", name, retransPerBin(bins))
		if peak != 14 || bins[14].RetransMean < 2*rest {
			t.Errorf("%s: peak in bin %d (%.0f/s), runner-up %.0f/s; want bin 14 at ≥ 2x", name, peak, bins[peak].RetransMean, rest)
		}
		// Throughput dips in the boundary second (allocation reset).
		if bins[14].ThroughputBps >= bins[7].ThroughputBps {
			t.Errorf("%s: no throughput dip before the boundary: %.0f vs mid-slot %.0f Mbit/s",
				name, bins[14].ThroughputBps/1e6, bins[7].ThroughputBps/1e6)
		}
	}
}

func retransPerBin(bins [SlotSeconds]SlotBin) []int64 {
	out := make([]int64, len(bins))
	for i, b := range bins {
		out[i] = b.Retransmits
	}
	return out
}

func BenchmarkSlotProfile(b *testing.B) {
	s := make([]Sample, 300)
	for i := range s {
		s[i] = Sample{T: time.Duration(i+1) * time.Second, Dur: time.Second, Bytes: 1e6, Retransmits: int64(i % 15)}
	}
	epoch := time.Date(2026, 3, 30, 6, 56, 31, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		SlotProfile(s, epoch)
	}
}
