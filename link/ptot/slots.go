package ptot

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/orbit"
)

// DefaultWindow is how long after a serving-satellite change p_ho applies.
// Seed 000 gives p_ho no duration; we assume the handover disturbs the
// link for as long as Starlink's reconfiguration interrupts the downlink,
// ~45 ms (seed 001 finding 14; the starlink profile's
// downlink.outage.duration), since both happen at the same 15 s boundary.
const DefaultWindow = 45 * time.Millisecond

// Params are the scenario's ptot parameters: one probability per leg, the
// same p_isl for every inter-satellite link a slot's route crosses, and the
// handover window.
type Params struct {
	Cap, At, Ho, Gw, ISL float64
	Window               time.Duration
}

// Validate checks the probabilities (each in [0, 1)) and the window (≥ 0),
// naming the first bad field.
func (p Params) Validate() error {
	if err := (Legs{Cap: p.Cap, At: p.At, Ho: p.Ho, Gw: p.Gw}).Validate(); err != nil {
		return err
	}
	if err := probability("p_isl", p.ISL); err != nil {
		return err
	}
	if p.Window < 0 {
		return &FieldError{Field: "handover_window", Msg: fmt.Sprintf("%v: must be >= 0 (default %v)", p.Window, DefaultWindow)}
	}
	return nil
}

// Slot is one reconfiguration slot's path.
type Slot struct {
	// Legs hold the slot's probabilities in its handover window; outside
	// it (or without a handover) the same without p_ho.
	Legs Legs
	// Handover: the serving satellite differs from the previous slot's, so
	// p_ho applies for the first Window of the slot.
	Handover bool
	// Outage: no satellite path this slot; every packet is lost.
	Outage bool
}

// Slots are the per-slot legs of a run: slot k covers run times
// [First + k·Length, First + (k+1)·Length).
type Slots struct {
	First  time.Duration // start of slot 0; ≤ 0 when the run starts mid-slot
	Length time.Duration
	Window time.Duration
	Slots  []Slot
}

// FromOrbit builds the slots of an orbit schedule whose slot 0 starts at run
// time first and whose slots last length: the ISL count of each slot's
// route gives its p_isl legs, and a change of serving satellite from the
// previous slot (also a return after an outage) is a handover. The first
// slot has no previous one and so no handover. Gateway changes are not
// handovers: seed 000 assumes gateway links are negligibly affected by
// handover losses.
func FromOrbit(paths []orbit.SlotPath, first, length time.Duration, p Params) (Slots, error) {
	if err := p.Validate(); err != nil {
		return Slots{}, err
	}
	switch {
	case len(paths) == 0:
		return Slots{}, fmt.Errorf("no slots")
	case length <= 0:
		return Slots{}, fmt.Errorf("slot length %v: must be > 0", length)
	case p.Window > length:
		return Slots{}, &FieldError{Field: "handover_window", Msg: fmt.Sprintf("%v: longer than a slot (%v)", p.Window, length)}
	}
	s := Slots{First: first, Length: length, Window: p.Window, Slots: make([]Slot, len(paths))}
	for k, sp := range paths {
		isl := make([]float64, sp.ISLs)
		for i := range isl {
			isl[i] = p.ISL
		}
		s.Slots[k] = Slot{
			Legs:     Legs{Cap: p.Cap, At: p.At, Ho: p.Ho, Gw: p.Gw, ISL: isl},
			Handover: k > 0 && !sp.Outage && sp.Serving != paths[k-1].Serving,
			Outage:   sp.Outage,
		}
	}
	return s, nil
}

// index is the slot of run time t, clamped to the schedule.
func (s *Slots) index(t time.Duration) int { return slotIndex(s.First, s.Length, len(s.Slots), t) }

// slotIndex is the slot of t among n slots of length from first, clamped:
// the first slot extends back, the last forward.
func slotIndex(first, length time.Duration, n int, t time.Duration) int {
	if t <= first {
		return 0
	}
	return min(int((t-first)/length), n-1)
}

// Expected is the mean of p_tot over run times [from, to): the loss rate of
// a stream of packets arriving evenly over that span.
func (s *Slots) Expected(from, to time.Duration) float64 {
	if to <= from {
		return 0
	}
	var sum float64 // probability × seconds
	for k := s.index(from); k < len(s.Slots); k++ {
		start := s.First + time.Duration(k)*s.Length
		end := start + s.Length
		if k == len(s.Slots)-1 {
			end = max(end, to)
		}
		lo, hi := max(start, from), min(end, to)
		if hi <= lo {
			break
		}
		sl := &s.Slots[k]
		if sl.Outage {
			sum += (hi - lo).Seconds()
			continue
		}
		in, out := sl.probabilities()
		win := time.Duration(0)
		if sl.Handover {
			win = max(0, min(hi, start+s.Window)-lo)
		}
		sum += in*win.Seconds() + out*(hi-lo-win).Seconds()
	}
	return sum / (to - from).Seconds()
}

// probabilities are the slot's p_tot inside and outside its handover
// window (equal without a handover).
func (sl *Slot) probabilities() (in, out float64) {
	noHo := sl.Legs
	noHo.Ho = 0
	out = noHo.Total()
	if !sl.Handover {
		return out, out
	}
	return sl.Legs.Total(), out
}

// At is p_tot for a packet at run time t (1 in an outage slot).
func (s *Slots) At(t time.Duration) float64 {
	k := s.index(t)
	sl := &s.Slots[k]
	if sl.Outage {
		return 1
	}
	in, out := sl.probabilities()
	if s.InWindow(t) {
		return in
	}
	return out
}

// InWindow reports whether run time t falls in a handover window.
func (s *Slots) InWindow(t time.Duration) bool {
	k := s.index(t)
	start := s.First + time.Duration(k)*s.Length
	return s.Slots[k].Handover && !s.Slots[k].Outage && t >= start && t < start+s.Window
}
