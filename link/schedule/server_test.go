package schedule

import (
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// A backlog of 1500-byte packets on a link that steps from 10 to 20 Mbit/s
// at 1 s: departures are 1.2 ms apart before and 0.6 ms after, and the
// packet on the wire at the step finishes at the blend of both rates.
func TestServerRateStep(t *testing.T) {
	prof, _ := NewProfile(10e6, []Change{{At: time.Second + 300*time.Microsecond, Value: 20e6}})
	q, _ := link.NewTailDrop(link.QueueLimit{}, nil)
	s, err := NewServer(prof, q)
	if err != nil {
		t.Fatal(err)
	}
	for range 2000 {
		p := &packet.Packet{Size: 1500}
		s.Enqueue(0, p)
	}
	var outs []time.Duration
	for ev := s.NextEvent(); ev != link.Never; ev = s.NextEvent() {
		for p := s.Dequeue(ev); p != nil; p = s.Dequeue(ev) {
			outs = append(outs, ev)
		}
	}
	if len(outs) != 2000 {
		t.Fatalf("%d out of 2000", len(outs))
	}
	// 833 packets done by 999.6 ms; #834 (index 833) is on the wire at the
	// step (1000.3 ms): 0.7 ms at 10 Mbit/s = 7000 bits, then the other
	// 5000 bits at 20 Mbit/s = 0.25 ms.
	if got, want := outs[832], 833*1200*time.Microsecond; got != want {
		t.Errorf("packet 833 done %v, want %v", got, want)
	}
	if got, want := outs[833], outs[832]+700*time.Microsecond+250*time.Microsecond; got != want {
		t.Errorf("packet on the wire at the step done %v, want %v", got, want)
	}
	if got := outs[1999] - outs[1998]; got != 600*time.Microsecond {
		t.Errorf("spacing after the step %v, want 600µs", got)
	}
	if sn := s.Snapshot(2 * time.Second); sn.RateBps != 20e6 {
		t.Errorf("snapshot rate %g, want 20e6", sn.RateBps)
	}
}

func TestServerRefusesRatesOutOfRange(t *testing.T) {
	q, _ := link.NewTailDrop(link.QueueLimit{}, nil)
	prof, _ := NewProfile(10e6, []Change{{At: time.Second, Value: 1}})
	if _, err := NewServer(prof, q); err == nil {
		t.Error("a rate step to 1 bit/s accepted")
	}
}
