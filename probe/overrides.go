package probe

import (
	"fmt"
	"strconv"
	"time"
)

// Override is one Starlink profile parameter (a dotted path, as in a
// scenario's path.overrides) set from what a probe showed, with where the
// value came from.
type Override struct {
	Key, Value, From string
}

// Overrides turns a report into Starlink profile overrides for the probed
// direction ("downlink" or "uplink"), so that `sim` and `emu` replay the
// link that was measured: the schedule's period and UTC offset, the frame,
// the outage, the queue a burst overflowed and — when synced is true (the
// two ends share a clock, as in sim and emu) — the idle one-way delay.
// Only what the report found is given.
func (r *Report) Overrides(direction string, synced bool) ([]Override, error) {
	if direction != "downlink" && direction != "uplink" {
		return nil, fmt.Errorf("direction %q: want downlink or uplink (the result's path.direction)", direction)
	}
	var out []Override
	add := func(key, value, from string) { out = append(out, Override{key, value, from}) }
	if s := r.Schedule; s != nil {
		add("reconfig.period", dur(s.Period, time.Millisecond), fmt.Sprintf("%d outages on a %v grid", s.OnGrid, s.Period))
	}
	// Frames quantise an outage's ends: the last packet before it left on
	// a frame up to one before it began (so the start reads early by half a
	// frame on average), the first after it on the first frame after it
	// ended (late by half a frame): the length reads a frame long.
	frame := time.Duration(0)
	if f := r.Frame; f != nil {
		frame = f.Period
		add("tdma.frame", dur(f.Period, 100*time.Nanosecond), fmt.Sprintf("arrival coherence %.2f", f.Coherence))
	}
	if s := r.Schedule; s != nil && s.UTCOffset >= 0 {
		add("reconfig.offset", dur((s.UTCOffset+frame/2)%s.Period, time.Millisecond), "the grid's position in the UTC minute, plus half a frame")
	}
	if n := len(r.Outages); n > 0 {
		if r.Schedule != nil {
			n = r.Schedule.OnGrid // OutageLength is theirs
		}
		add(direction+".outage.duration", dur(r.OutageLength-frame, 100*time.Microsecond),
			fmt.Sprintf("median of %d outages (%v) less a frame", n, r.OutageLength.Round(time.Microsecond)))
	}
	if synced {
		add(direction+".base_owd", dur(r.MinOWD, 100*time.Microsecond), "least one-way delay (includes a terrestrial leg, if any)")
	}
	if b := r.Burst; b != nil && b.Policy == "head-drop" {
		add(direction+".queue.limit_packets", strconv.Itoa(b.Kept), fmt.Sprintf("packets a %d-packet burst left in the queue (less the AQM's drops among them)", b.Packets))
	}
	return out, nil
}

// dur formats d rounded to step, in the profile's duration syntax.
func dur(d, step time.Duration) string { return d.Round(step).String() }
