package tracelink

import (
	"testing"
	"time"

	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/trace"
)

// TestDelayLine: delay_queue.cc's rule, index (t / 10 ms) mod n, with a
// fall of the delay that reorders (LeoReplayer's priority queue does).
func TestDelayLine(t *testing.T) {
	d := &trace.Delays{Interval: 10 * ms, D: []time.Duration{30 * ms, 5 * ms, 12 * ms}}
	l, err := NewDelayLine(d)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		seq  uint64
		at   time.Duration
		want time.Duration
	}{
		{1, 0, 30 * ms},                 // interval 0: 30 ms
		{2, 9 * ms, 39 * ms},            // still interval 0
		{3, 10 * ms, 15 * ms},           // interval 1: 5 ms, overtakes 1 and 2
		{4, 25 * ms, 37 * ms},           // interval 2: 12 ms
		{5, 30*ms + ms/2, 60*ms + ms/2}, // loops: interval 3 = interval 0
		{6, 30*ms + ms/2, 60*ms + ms/2}, // same time: in order of arrival
		{7, 1015 * ms, 1027 * ms},       // interval 101, 101 mod 3 = 2: 12 ms
	}
	for _, c := range cases {
		l.Enqueue(c.at, &packet.Packet{Seq: c.seq})
	}
	var order []uint64
	for now := l.NextEvent(); now != never; now = l.NextEvent() {
		for p := l.Dequeue(now); p != nil; p = l.Dequeue(now) {
			for _, c := range cases {
				if c.seq == p.Seq && c.want != now {
					t.Errorf("packet %d entering at %v left at %v, want %v", p.Seq, c.at, now, c.want)
				}
			}
			order = append(order, p.Seq)
		}
	}
	want := []uint64{3, 1, 4, 2, 5, 6, 7}
	for i := range want {
		if i >= len(order) || order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
}

func BenchmarkDelayLine(b *testing.B) {
	d := &trace.Delays{Interval: 10 * ms, D: []time.Duration{30 * ms, 5 * ms, 12 * ms, 20 * ms}}
	l, _ := NewDelayLine(d)
	pkts := make([]packet.Packet, 4096)
	b.ReportAllocs()
	now := time.Duration(0)
	for i := 0; b.Loop(); i++ {
		l.Enqueue(now, &pkts[i%len(pkts)])
		now += 100 * time.Microsecond
		for p := l.Dequeue(now); p != nil; p = l.Dequeue(now) {
		}
	}
}
