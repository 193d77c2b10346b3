package orbit

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

func testSchedule(t *testing.T, mode Mode) []SlotPath {
	t.Helper()
	sh, _ := ShellByName("starlink-1")
	w, err := NewWalker(Epoch(), sh)
	if err != nil {
		t.Fatal(err)
	}
	from, _ := ParseLatLon("32.72,-117.16")
	to, _ := ParseLatLon("40.71,-74.01")
	slots, err := Schedule(w, PathConfig{From: from, To: to, Start: Epoch(), Duration: 10 * time.Minute, Slot: DefaultSlot,
		Mode: mode, Policy: Highest, MinElevation: DefaultMinElevation, Gateways: Gateways()})
	if err != nil {
		t.Fatal(err)
	}
	return slots
}

// What `leolab orbit path --csv` and `--json` write reads back: every
// slot's start, route fields and flags, its delay to the µs the CSV keeps.
func TestReadScheduleRoundTrip(t *testing.T) {
	slots := testSchedule(t, ISL)
	var csvBuf, jsonBuf bytes.Buffer
	if err := WriteCSV(&csvBuf, slots); err != nil {
		t.Fatal(err)
	}
	if err := json.NewEncoder(&jsonBuf).Encode(struct {
		Mode  string     `json:"mode"`
		Slots []SlotPath `json:"slots"`
	}{"isl", slots}); err != nil {
		t.Fatal(err)
	}
	for name, buf := range map[string]*bytes.Buffer{"csv": &csvBuf, "json": &jsonBuf} {
		got, err := ReadSchedule(name, buf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != len(slots) {
			t.Fatalf("%s: %d slots, want %d", name, len(got), len(slots))
		}
		for i, s := range slots {
			g := got[i]
			if !g.Start.Equal(s.Start) || g.Serving != s.Serving || g.Gateway != s.Gateway || g.Hops != s.Hops || g.ISLs != s.ISLs ||
				g.Changed != s.Changed || g.Outage != s.Outage || math.Abs(float64(g.OneWay-s.OneWay)) > 500 {
				t.Errorf("%s slot %d: read %+v, wrote %+v", name, i, g, s)
			}
		}
	}
	if n, err := SlotLength(slots); err != nil || n != DefaultSlot {
		t.Errorf("SlotLength %v, %v", n, err)
	}
}

func TestReadScheduleBadInput(t *testing.T) {
	const head = "start,serving,one_way_delay_ms,changed,outage\n"
	for _, tc := range []struct{ name, body, want string }{
		{"empty", "", "f.csv:1: header: EOF"},
		{"no slots", head, "f.csv: no slots"},
		{"unknown column", "start,colour\n", `f.csv:1: unknown column "colour"`},
		{"missing column", "start,changed,outage\n", "f.csv:1: missing column one_way_delay_ms"},
		{"not a number", head + "2026-04-01T00:00:00Z,a,x,false,false\n", `f.csv:2: column one_way_delay_ms: "x" is not valid`},
		{"NaN", head + "2026-04-01T00:00:00Z,a,NaN,false,false\n", "f.csv:2: slot 0: one_way_delay_ms NaN outside 0..10000"},
		{"bad time", head + "yesterday,a,5,false,false\n", `f.csv:2: column start: "yesterday" is not valid`},
		{"time order", head + "2026-04-01T00:00:15Z,a,5,false,false\n2026-04-01T00:00:00Z,a,5,false,false\n",
			"f.csv:3: slot 1 starts at 2026-04-01T00:00:00Z, not after the previous slot's 2026-04-01T00:00:15Z"},
		{"short row", head + "2026-04-01T00:00:00Z,a,5\n", "f.csv:2: record on line 2: wrong number of fields"},
		{"bad json", `{"slots": [`, "f.csv: unexpected EOF"},
	} {
		_, err := ReadSchedule("f.csv", strings.NewReader(tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	uneven := []SlotPath{{Start: Epoch()}, {Start: Epoch().Add(15 * time.Second)}, {Start: Epoch().Add(40 * time.Second)}}
	if _, err := SlotLength(uneven); err == nil || !strings.Contains(err.Error(), "slot 2 starts 25s after slot 1, not the schedule's 15s") {
		t.Errorf("uneven: %v", err)
	}
}

func FuzzReadSchedule(f *testing.F) {
	f.Add([]byte("start,one_way_delay_ms,changed,outage\n2026-04-01T00:00:00Z,5.5,false,false\n"))
	f.Add([]byte(`{"slots":[{"start":"2026-04-01T00:00:00Z","one_way_delay_ms":5}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		slots, err := ReadSchedule("fuzz", bytes.NewReader(data))
		if err != nil {
			return
		}
		for i := range slots {
			if slots[i].OneWay < 0 || i > 0 && !slots[i].Start.After(slots[i-1].Start) {
				t.Fatalf("accepted slot %d: %+v", i, slots[i])
			}
		}
	})
}
