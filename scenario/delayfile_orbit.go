package scenario

import (
	"fmt"
	"io"
	"time"

	"github.com/leolab/leolab/link/schedule"
	"github.com/leolab/leolab/orbit"
)

// readOrbitDelayFile reads `leolab orbit path --csv` or `--json` output as
// a path log: each slot's one-way delay holds for the slot, an outage slot
// takes the path down, and a slot whose route differs from the previous
// one's (not an outage itself) is a handover, as in LeoEM's files.
func readOrbitDelayFile(name string, r io.Reader) (*schedule.PathLog, error) {
	slots, err := orbit.ReadSchedule(name, r)
	if err != nil {
		return nil, err
	}
	step, err := orbit.SlotLength(slots)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	pl := &schedule.PathLog{File: name, Step: step,
		OWD: make([]float64, len(slots)), Down: make([]bool, len(slots)),
		Handover: make([]bool, len(slots)), Interruption: make([]time.Duration, len(slots))}
	last := -1.0
	for i, s := range slots {
		pl.Down[i] = s.Outage
		pl.Handover[i] = s.Changed && !s.Outage
		if !s.Outage {
			last = s.OneWay.Seconds()
		}
		pl.OWD[i] = last
	}
	first := -1.0
	for _, d := range pl.OWD {
		if d >= 0 {
			first = d
			break
		}
	}
	if first < 0 {
		return nil, fmt.Errorf("%s: every slot is an outage", name)
	}
	for i := 0; i < len(pl.OWD) && pl.OWD[i] < 0; i++ { // leading outages: the first delay
		pl.OWD[i] = first
	}
	return pl, nil
}
