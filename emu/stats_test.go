package emu

import (
	"testing"
	"time"

	"github.com/leolab/leolab/endpoint"
	"github.com/leolab/leolab/link"
)

func TestInstrumentKeys(t *testing.T) {
	s := &Stats{ReleaseP50: 7 * time.Microsecond, ReleaseP99: 150 * time.Microsecond, TUNDrops: [2]int64{3, 4}, Realtime: true, PumpCPU: 1, IdlePolls: true, Gaps: 2, GapMax: 3 * time.Millisecond, GapTotal: 4500 * time.Microsecond}
	m := s.Instrument()
	for k, want := range map[string]float64{
		"release_err_p50_us": 7, "release_err_p99_us": 150, "tun_drops_client": 3, "tun_drops_server": 4, "pump_realtime": 1,
		"pump_cpu": 1, "idle_polls": 1, "pump_gaps": 2, "pump_gap_max_us": 3000, "pump_gap_total_ms": 4.5,
	} {
		if m[k] != want {
			t.Errorf("%s = %g, want %g", k, m[k], want)
		}
	}
}

// Each link sample carries the drops of its own interval, and the totals
// in Stats are their sum (the emulator once left the per-interval drops
// at zero).
func TestSampleDropsPerInterval(t *testing.T) {
	pu := &pump{interval: time.Second, nextSample: time.Second, relErr: endpoint.NewHist(errSpan)}
	w := &pu.ways[1]
	w.drops[link.DropHead] = 3
	w.drops[link.DropAQM] = 1
	pu.sample(time.Second)
	w.drops[link.DropAQM] += 2
	pu.sample(2 * time.Second)
	got := pu.stats().Links[1]
	if len(got.Intervals) != 2 {
		t.Fatalf("%d samples, want 2", len(got.Intervals))
	}
	first, second := got.Intervals[0].Drops, got.Intervals[1].Drops
	if first.Head != 3 || first.AQM != 1 || second.Head != 0 || second.AQM != 2 {
		t.Errorf("interval drops %+v then %+v, want head 3 aqm 1, then aqm 2", first, second)
	}
	if got.Drops.Head != 3 || got.Drops.AQM != 3 {
		t.Errorf("total drops %+v, want head 3 aqm 3", got.Drops)
	}
}
