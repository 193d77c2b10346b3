package link

import (
	"time"

	"github.com/leolab/leolab/packet"
)

// Shift runs a stage on a time axis offset from the caller's: the stage
// sees now − By. The live emulator's link clock starts before the flows'
// (emu's startLead), so a link that changes with run time (a schedule, a
// replayed path) is shifted to stay on the flows' axis, as in sim.
type Shift struct {
	S  Stage
	By time.Duration
}

// Enqueue hands p to the stage at its time.
func (s Shift) Enqueue(now time.Duration, p *packet.Packet) { s.S.Enqueue(now-s.By, p) }

// Dequeue releases from the stage at its time.
func (s Shift) Dequeue(now time.Duration) *packet.Packet { return s.S.Dequeue(now - s.By) }

// NextEvent is the stage's next event on the caller's axis.
func (s Shift) NextEvent() time.Duration {
	t := s.S.NextEvent()
	if t == Never {
		return Never
	}
	return t + s.By
}

// Snapshot reports the stage's state when it is Observable.
func (s Shift) Snapshot(now time.Duration) Snapshot {
	if o, ok := s.S.(Observable); ok {
		return o.Snapshot(now - s.By)
	}
	return Snapshot{}
}
