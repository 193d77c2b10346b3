package probe

import (
	"os"
	"testing"
	"time"
)

const leoDelay = "../../shared/data/leoreplayer-example/delay_example.txt"

// The LeoReplayer example trace (a real Starlink recording, one OWD per
// 10 ms; data README) shows a delay spike every 15 s, at 8.75 s, 23.73 s,
// 38.74 s, ... (README). The inference must find exactly those: a 15 s
// schedule, eight outages on it over 120 s, none off it.
func TestLeoReplayerSchedule(t *testing.T) {
	f, err := os.Open(leoDelay)
	if err != nil {
		t.Skipf("skipping: the dataset is not here: %v", err)
	}
	defer f.Close()
	tr, err := ReadDelaySeries(leoDelay, f, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Infer(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range r.Outages {
		t.Logf("outage at %v, until %v, peak %v", o.Start, o.End, o.Peak)
	}
	s := r.Schedule
	if s == nil {
		t.Fatalf("no schedule among %d outages", len(r.Outages))
	}
	t.Logf("schedule: period %v phase %v residual %v, %d on grid, %d off; median outage %v; %d intervals, median shift %v",
		s.Period, s.Phase, s.Residual, s.OnGrid, s.Off, r.OutageLength, len(r.Intervals), r.Shift)
	// The spikes are one or a few 10 ms samples: the grid is known to
	// about a sample, so over 105 s the period is known to ~0.2 ms; the
	// recording's own spikes sit 8.73–8.79 s into their 15 s.
	if d := s.Period - 15*time.Second; d < -5*time.Millisecond || d > 5*time.Millisecond {
		t.Errorf("period %v, want 15 s ± 5 ms", s.Period)
	}
	if s.Phase < 8700*time.Millisecond || s.Phase > 8800*time.Millisecond {
		t.Errorf("phase %v, want 8.70–8.80 s (first spike at 8.75 s)", s.Phase)
	}
	if s.OnGrid != 8 || s.Off != 0 {
		t.Errorf("%d outages on the grid and %d off it, want 8 and 0", s.OnGrid, s.Off)
	}
	if s.UTCOffset != -1 {
		t.Errorf("UTC offset %v without an epoch, want -1", s.UTCOffset)
	}
}
