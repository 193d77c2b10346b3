package repro001

import (
	"math"
	"testing"
	"time"
)

// place puts a run's t = 0 at the anchor's place in the slot, or later
// in the same slot when the run still ends liveSlotMargin before the
// next boundary; a run too long for that waits for the exact place.
func TestPlace(t *testing.T) {
	const period = 15 * time.Second
	minute := time.Date(2026, 12, 2, 16, 0, 0, 0, time.UTC)
	anchor := minute.Add(13 * time.Second) // a second after the :12 boundary
	for _, c := range []struct {
		now  time.Duration // since the minute
		dur  time.Duration
		want time.Duration
	}{
		{now: 13 * time.Second, dur: 3 * time.Second, want: 13 * time.Second},                 // exactly at the anchor
		{now: 20 * time.Second, dur: 3 * time.Second, want: 20 * time.Second},                 // room left in the slot: 20 + 3 + 0.5 <= 27
		{now: 23500 * time.Millisecond, dur: 3 * time.Second, want: 23500 * time.Millisecond}, // ends at the margin
		{now: 23600 * time.Millisecond, dur: 3 * time.Second, want: 28 * time.Second},         // would end inside the margin: the next slot
		{now: 11 * time.Second, dur: 3 * time.Second, want: 13 * time.Second},                 // before the anchor: wait for it
		{now: 14 * time.Second, dur: 35 * time.Second, want: 28 * time.Second},                // crosses boundaries: exact place only
	} {
		got := place(minute.Add(c.now), anchor, c.dur, period).Sub(minute)
		if got != c.want {
			t.Errorf("now :%v, run %v: placed at :%v, want :%v", c.now, c.dur, got, c.want)
		}
		if end := got + c.dur; c.dur < period && (got-13*time.Second)%period+c.dur > period-anchorLead-liveSlotMargin {
			t.Errorf("now :%v: a %v run placed at :%v ends at :%v, inside the next boundary's margin", c.now, c.dur, got, end)
		}
	}
}

// The live widening of the schedule's tolerance is the light probe's own
// longest stall, and only the schedule's quantities widen.
func TestLiveTolerances(t *testing.T) {
	qs := []Quantity{
		{Direction: "downlink", Name: "reconfiguration period", Profile: 15, Inferred: 15.007, Abs: 0.003},
		{Direction: "downlink", Name: "boundary offset in the UTC minute (mod period)", Profile: 12, Inferred: 12.009, Abs: 0.003},
		{Direction: "uplink", Name: "reconfiguration period", Profile: 15, Inferred: 15.007, Abs: 0.003},
		{Direction: "downlink", Name: "outage", Profile: 45, Inferred: 52, Rel: 0.1},
		{Direction: "downlink", Name: "regrowth after a reset to 90 % of the slot's rate", Profile: 515, Inferred: 581, Rel: 0.1, Abs: 20},
		// 0.25 ms at the control's 100 Mbit/s is 2.08 packets of 1500 bytes: 3 more.
		{Direction: "fixed", Name: "control: drop-tail 800 keeps", Profile: 800, Inferred: 804, Abs: 1},
	}
	runs := []liveRun{{name: "reconfig-downlink", pumpGap: 4 * time.Millisecond, senderPause: 7 * time.Millisecond}, {name: "reconfig-uplink"},
		{name: "slots-downlink", pumpGap: 47 * time.Millisecond}, {name: "burst-droptail", senderPause: 250 * time.Microsecond}}
	got := liveTolerances(qs, runs)
	for i, want := range []struct {
		abs float64
		ok  bool
	}{{0.010, true}, {0.010, true}, {0.003, false}, {0, false}, {67, true}, {4, true}} {
		if math.Abs(got[i].Abs-want.abs) > 1e-12 || got[i].OK() != want.ok {
			t.Errorf("%s %s: tolerance ±%g (ok %v), want ±%g (ok %v)", got[i].Direction, got[i].Name, got[i].Abs, got[i].OK(), want.abs, want.ok)
		}
	}
	if qs[0].Abs != 0.003 {
		t.Error("liveTolerances changed its input")
	}
	if s := stalls(runs[:2]); len(s) != 0 {
		t.Errorf("stalls within the light probe's 10 ms listed: %q", s)
	}
	if s := stalls([]liveRun{{name: "ramp-downlink", senderPause: 6 * time.Millisecond}}); len(s) != 1 {
		t.Errorf("a 6 ms pause of a single-slot run not listed: %q", s)
	}
}
