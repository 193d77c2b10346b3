package ptot

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/orbit"
)

var testParams = Params{Cap: 0.01, At: 0.005, Ho: 0.3, Gw: 0.002, ISL: 0.004, Window: DefaultWindow}

func TestFromOrbitHandoversAndISLs(t *testing.T) {
	paths := []orbit.SlotPath{
		{Serving: "a", ISLs: 0},
		{Serving: "a", ISLs: 2, Gateway: "other"}, // a gateway change only: no handover
		{Serving: "b", ISLs: 3},
		{Outage: true},
		{Serving: "b", ISLs: 1}, // back after an outage: a handover
	}
	s, err := FromOrbit(paths, -4*time.Second, 15*time.Second, testParams)
	if err != nil {
		t.Fatal(err)
	}
	wantHo := []bool{false, false, true, false, true}
	for k, sl := range s.Slots {
		if sl.Handover != wantHo[k] || len(sl.Legs.ISL) != paths[k].ISLs || sl.Outage != paths[k].Outage {
			t.Errorf("slot %d: handover %v, %d ISLs, outage %v; want %v, %d, %v", k, sl.Handover, len(sl.Legs.ISL), sl.Outage, wantHo[k], paths[k].ISLs, paths[k].Outage)
		}
	}
	// Slot 2, in its window: 1 − .99·.995·.7·.998·.996³.
	want := 1 - 0.99*0.995*0.7*0.998*math.Pow(0.996, 3)
	if in, _ := s.Slots[2].probabilities(); math.Abs(in-want) > 1e-12 {
		t.Errorf("slot 2 in window: p_tot %v, want %v", in, want)
	}
}

func TestFromOrbitRefuses(t *testing.T) {
	paths := []orbit.SlotPath{{Serving: "a"}}
	if _, err := FromOrbit(nil, 0, time.Second, testParams); err == nil {
		t.Error("no slots accepted")
	}
	p := testParams
	p.Window = 2 * time.Second
	var fe *FieldError
	if _, err := FromOrbit(paths, 0, time.Second, p); !errors.As(err, &fe) || fe.Field != "handover_window" {
		t.Errorf("window longer than a slot: %v", err)
	}
	p = testParams
	p.Gw = 1
	if _, err := FromOrbit(paths, 0, time.Second, p); !errors.As(err, &fe) || fe.Field != "p_gw" {
		t.Errorf("p_gw 1: %v", err)
	}
}

// A real schedule: Melbourne → Sydney over shell 1's +Grid. Every route
// has at least one ISL, and each handover is a change of serving
// satellite.
func TestFromOrbitWalkerISL(t *testing.T) {
	sh, err := orbit.ShellByName("starlink-1")
	if err != nil {
		t.Fatal(err)
	}
	w, err := orbit.NewWalker(orbit.Epoch(), sh)
	if err != nil {
		t.Fatal(err)
	}
	from, _ := orbit.ParseLatLon("-37.85,145.11")
	to, _ := orbit.ParseLatLon("-33.87,151.21")
	paths, err := orbit.Schedule(w, orbit.PathConfig{From: from, To: to, Start: orbit.Epoch(), Duration: 10 * time.Minute,
		Slot: orbit.DefaultSlot, Mode: orbit.ISL, Policy: orbit.Highest, MinElevation: orbit.DefaultMinElevation, Gateways: orbit.Gateways()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromOrbit(paths, 0, orbit.DefaultSlot, testParams)
	if err != nil {
		t.Fatal(err)
	}
	handovers := 0
	for k, sl := range s.Slots {
		if paths[k].Outage {
			t.Fatalf("slot %d: outage over Melbourne", k)
		}
		if len(sl.Legs.ISL) != paths[k].ISLs {
			t.Errorf("slot %d: %d ISL legs, route has %d", k, len(sl.Legs.ISL), paths[k].ISLs)
		}
		if sl.Handover {
			handovers++
		}
	}
	// Highest elevation over a ~4 min pass at 15 s slots changes satellite
	// every few slots: more than one handover in 10 min, fewer than every slot.
	if handovers < 2 || handovers >= len(s.Slots)-1 {
		t.Errorf("%d handovers in %d slots", handovers, len(s.Slots))
	}
}

func TestExpected(t *testing.T) {
	s := Slots{First: 0, Length: 10 * time.Second, Window: time.Second, Slots: []Slot{
		{Legs: Legs{Cap: 0.1, Ho: 0.5}},                 // no handover: 0.1 throughout
		{Legs: Legs{Cap: 0.1, Ho: 0.5}, Handover: true}, // 1 s at 0.55, 9 s at 0.1
		{Outage: true},
	}}
	for _, tc := range []struct {
		from, to time.Duration
		want     float64
	}{
		{0, 10 * time.Second, 0.1},
		{10 * time.Second, 20 * time.Second, (0.55 + 9*0.1) / 10},
		{10 * time.Second, 11 * time.Second, 0.55},
		{20 * time.Second, 30 * time.Second, 1},
		{0, 30 * time.Second, (10*0.1 + 0.55 + 9*0.1 + 10) / 30},
	} {
		if got := s.Expected(tc.from, tc.to); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Expected(%v, %v) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
}

func TestAtAndInWindow(t *testing.T) {
	s := Slots{First: -2 * time.Second, Length: 10 * time.Second, Window: time.Second, Slots: []Slot{
		{Legs: Legs{Cap: 0.1, Ho: 0.5}},
		{Legs: Legs{Cap: 0.1, Ho: 0.5}, Handover: true}, // from 8 s
		{Outage: true},
	}}
	for _, tc := range []struct {
		at  time.Duration
		p   float64
		win bool
	}{{0, 0.1, false}, {8 * time.Second, 0.55, true}, {8999 * time.Millisecond, 0.55, true}, {9 * time.Second, 0.1, false}, {18 * time.Second, 1, false}, {time.Hour, 1, false}} {
		if got := s.At(tc.at); math.Abs(got-tc.p) > 1e-12 || s.InWindow(tc.at) != tc.win {
			t.Errorf("at %v: p %v window %v, want %v %v", tc.at, got, s.InWindow(tc.at), tc.p, tc.win)
		}
	}
}
