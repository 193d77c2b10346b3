package tracelink

import (
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/trace"
)

const ms = time.Millisecond

func newTestServer(t testing.TB, times []uint32, limit int, drops *int) *Server {
	t.Helper()
	q, err := link.NewTailDrop(link.QueueLimit{Packets: limit}, func(time.Duration, *packet.Packet, link.DropCause) {
		if drops != nil {
			*drops++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewServer(&trace.Opportunities{MS: times}, trace.OpportunityBytes, q)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// drain polls st at its events until before `until` and returns the
// release time of every packet, by packet sequence number.
func drain(st link.Stage, until time.Duration) map[uint64]time.Duration {
	out := map[uint64]time.Duration{}
	for t := st.NextEvent(); t <= until; t = st.NextEvent() {
		for p := st.Dequeue(t); p != nil; p = st.Dequeue(t) {
			out[p.Seq] = t
		}
	}
	return out
}

// TestServerMahimahiSemantics is a worked example of link_queue.cc's
// rationalize: opportunities of 1504 bytes at 1, 1 and 3 ms (period 3 ms),
// 1500-byte packets. Each opportunity finishes one packet and lends 4 more
// bytes to the next, so the fourth packet still needs 1500-12 = 1488 bytes
// and finishes at the first opportunity of the second loop (3+1 = 4 ms).
func TestServerMahimahiSemantics(t *testing.T) {
	s := newTestServer(t, []uint32{1, 1, 3}, 0, nil)
	for i := range 5 {
		s.Enqueue(0, &packet.Packet{Seq: uint64(i), Size: 1500})
	}
	got := drain(s, 100*ms)
	want := map[uint64]time.Duration{0: 1 * ms, 1: 1 * ms, 2: 3 * ms, 3: 4 * ms, 4: 4 * ms}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("packet %d left at %v, want %v (all: %v)", k, got[k], v, got)
		}
	}
	// Packet 4 finished at the second 4 ms opportunity with 4·5 = 20
	// bytes to spare, lost with nothing queued. The queue is empty: the
	// opportunities at 4, 4 and 6 ms pass unused; an arrival at exactly
	// 7 ms finds the opportunities at 7 ms used before it (Mahimahi
	// rationalises before it enqueues) and leaves at 9 ms.
	s.Enqueue(7*ms, &packet.Packet{Seq: 9, Size: 1500})
	got = drain(s, 100*ms)
	if got[9] != 9*ms {
		t.Errorf("arrival at 7 ms left at %v, want 9 ms", got[9])
	}
	// A packet larger than an opportunity spans several: 4000 bytes need
	// three of 1504, arriving at 9.5 ms: 10, 10, 12 ms.
	s.Enqueue(9*ms+ms/2, &packet.Packet{Seq: 10, Size: 4000})
	if got := drain(s, 100*ms); got[10] != 12*ms {
		t.Errorf("4000-byte packet left at %v, want 12 ms", got[10])
	}
}

// TestServerLoops: after an idle gap of many periods the server finds the
// right opportunity (skipPast), and a saturated server delivers exactly
// the trace's bytes per period.
func TestServerLoops(t *testing.T) {
	times := []uint32{0, 2, 2, 5, 10}
	s := newTestServer(t, times, 0, nil)
	// idle until 1003.5 ms: loop 100 starts at 1000; the next are 1005, 1010.
	s.Enqueue(1003*ms+ms/2, &packet.Packet{Seq: 1, Size: 1504})
	s.Enqueue(1003*ms+ms/2, &packet.Packet{Seq: 2, Size: 1504})
	got := drain(s, 2000*ms)
	if got[1] != 1005*ms || got[2] != 1010*ms {
		t.Fatalf("after the gap: %v, want 1: 1005ms, 2: 1010ms", got)
	}
	// Saturated for 10 periods from 2000 ms: every opportunity of
	// (2000, 2100] carries one 1504-byte packet: 5 per period, and the
	// period's first (ms 0) coincides with the last of the one before.
	s2 := newTestServer(t, times, 0, nil)
	for i := range 1000 {
		s2.Enqueue(2000*ms, &packet.Packet{Seq: uint64(i), Size: 1504})
	}
	n := 0
	for _, at := range drain(s2, 2100*ms) {
		if at > 2000*ms {
			n++
		}
	}
	if n != 50 {
		t.Errorf("%d packets in (2000, 2100] ms, want 5 per 10 ms period = 50", n)
	}
}

// TestServerDropTail: the in-service packet does not count against the
// drop-tail limit (Mahimahi dequeues it), so a limit of N holds N+1.
func TestServerDropTail(t *testing.T) {
	drops := 0
	s := newTestServer(t, []uint32{1000}, 3, &drops)
	for i := 0; i <= 5; i++ {
		s.Enqueue(0, &packet.Packet{Seq: uint64(i), Size: 1500})
	}
	if drops != 3 {
		t.Fatalf("%d drops, want 3 (6 offered to a queue of 3, none in service before 1 s)", drops)
	}
	// At 1000 ms packet 0 leaves and packet 1 enters service with the 4
	// bytes left over; packet 2 waits.
	if p := s.Dequeue(1000 * ms); p == nil || p.Seq != 0 {
		t.Fatalf("at 1000 ms released %v, want packet 0", p)
	}
	for i := 6; i <= 8; i++ {
		s.Enqueue(1000*ms, &packet.Packet{Seq: uint64(i), Size: 1500})
	}
	// Packet 2 queued, packet 1 in service: room for two more, one dropped.
	if drops != 4 {
		t.Errorf("%d drops, want 4 (packet 1 in service leaves room for 3 queued)", drops)
	}
	if sn := s.Snapshot(1000 * ms); sn.QueuePackets != 4 {
		t.Errorf("snapshot %d packets, want 4 (3 queued + 1 in service)", sn.QueuePackets)
	}
}

func TestServerCapacity(t *testing.T) {
	var times []uint32
	for m := uint32(1); m <= 1000; m++ {
		for range 5 { // 5 per ms: 5·1504·8 bit/ms = 60.16 Mbit/s
			times = append(times, m)
		}
	}
	s := newTestServer(t, times, 0, nil)
	if got := s.Snapshot(200 * ms).RateBps; got != 60.16e6 {
		t.Errorf("capacity %g bit/s, want 60.16e6", got)
	}
}

func BenchmarkServer(b *testing.B) {
	var times []uint32
	for m := uint32(1); m <= 10000; m++ {
		times = append(times, m, m, m, m)
	}
	s := newTestServer(b, times, 1000, nil)
	pkts := make([]packet.Packet, 64)
	b.ReportAllocs()
	now := time.Duration(0)
	for i := 0; b.Loop(); i++ {
		p := &pkts[i%len(pkts)]
		p.Size = 1500
		s.Enqueue(now, p)
		now += 250 * time.Microsecond // at the trace's rate: the queue stays short
		for q := s.Dequeue(now); q != nil; q = s.Dequeue(now) {
		}
	}
}
