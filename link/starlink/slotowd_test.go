package starlink

import (
	"testing"
	"time"

	"github.com/leolab/leolab/sim"
)

// Config.SlotOWD replaces the drawn OWD shift: a light probe's smallest
// delay in each slot is base_owd + SlotOWD(slot start) (within a frame),
// and the slots' rate scales are those of the same seed without it.
func TestSlotOWDReplacesDrift(t *testing.T) {
	p := mustProfile(t, "", nil)
	const epoch = 5 * time.Second // boundaries at run times 7, 22, 37, 52 s
	owdOf := func(start time.Duration) time.Duration {
		return time.Duration(3+(start+8*time.Second)/(5*time.Second)) * time.Millisecond
	} // 3, 6, 9, 12, 15 ms
	run := func(slotOWD func(time.Duration) time.Duration) (*bench, []slotState) {
		b := &bench{t: t, loop: sim.NewLoop(), keep: true, pollAt: -1}
		l, err := NewDownlink(p, Config{Rand: sim.Stream(1, "starlink/downlink"), Drop: b.onDrop, Epoch: epoch, SlotSeed: 7, SlotOWD: slotOWD})
		if err != nil {
			t.Fatal(err)
		}
		b.l = l
		b.cbr(0, 1e6, 100, 0, 60*time.Second)
		var slots []slotState
		for _, at := range []time.Duration{6, 21, 36, 51} {
			b.loop.RunUntil(at * time.Second)
			slots = append(slots, b.l.slot)
		}
		b.loop.RunUntil(61 * time.Second)
		return b, slots
	}
	b, with := run(owdOf)
	_, without := run(nil)
	starts := []time.Duration{-8 * time.Second, 7 * time.Second, 22 * time.Second, 37 * time.Second, 52 * time.Second}
	for i, st := range starts {
		from, to := max(st, 0)+100*time.Millisecond, st+15*time.Second-time.Second
		got := percentile(b.owds(0, from, min(to, 60*time.Second)), 0)
		want := p.Downlink.BaseOWD + owdOf(st)
		if got < want || got > want+p.TDMA.Frame {
			t.Errorf("slot from %v: smallest OWD %v, want %v (+ up to a frame)", st, got, want)
		}
		if i < len(with) && with[i].scale != without[i].scale {
			t.Errorf("slot %d: rate scale %v with SlotOWD, %v without: the draws moved", i, with[i].scale, without[i].scale)
		}
	}
}
