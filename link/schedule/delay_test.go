package schedule

import (
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// Packets every 100 µs through a delay that drops from 50 ms to 10 ms at
// 1 s: none overtakes another, the first sent after the drop leaves right
// behind the last one sent before it (1.05 s), and from 1.04 s on (the 40 ms
// of the drop later) each gets 10 ms exactly.
func TestDelayDropKeepsOrder(t *testing.T) {
	base, _ := NewProfile(0.050, []Change{{At: time.Second, Value: 0.010}})
	d, err := NewDelay(base, Profile{}, Outages{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pool packet.Pool
	var lastOut time.Duration
	var lastSeq uint64
	out := 0
	step := 100 * time.Microsecond
	drain := func(now time.Duration) {
		for p := d.Dequeue(now); p != nil; p = d.Dequeue(now) {
			if p.Seq < lastSeq {
				t.Fatalf("packet %d after %d: reordered", p.Seq, lastSeq)
			}
			owd := now - p.SentAt
			switch {
			case p.SentAt < time.Second && owd != 50*time.Millisecond:
				t.Fatalf("packet sent %v: owd %v, want 50ms", p.SentAt, owd)
			case p.SentAt >= time.Second && p.SentAt < 1040*time.Millisecond && now != lastOut:
				t.Fatalf("packet sent %v left at %v, want behind the last at %v", p.SentAt, now, lastOut)
			case p.SentAt >= 1040*time.Millisecond && owd != 10*time.Millisecond:
				t.Fatalf("packet sent %v: owd %v, want 10ms", p.SentAt, owd)
			}
			lastSeq, lastOut = p.Seq, max(lastOut, now)
			out++
			pool.Put(p)
		}
	}
	seq := uint64(0)
	for now := time.Duration(0); now < 2*time.Second; now += step {
		for ev := d.NextEvent(); ev < now; ev = d.NextEvent() {
			drain(ev)
		}
		drain(now)
		p := pool.Get()
		p.Seq, p.SentAt, p.Size = seq, now, 1500
		seq++
		d.Enqueue(now, p)
	}
	for ev := d.NextEvent(); ev != link.Never; ev = d.NextEvent() {
		drain(ev)
	}
	if out != int(seq) {
		t.Errorf("%d of %d packets out: the change lost some", out, seq)
	}
	if h := d.Held(); h != 399 { // sent in [1 s, 1.0399 s): 1.0399 s + 10 ms is the last due, not later
		t.Errorf("held %d packets, want 399", h)
	}
}

func TestDelayOutageDrops(t *testing.T) {
	drops := 0
	d, err := NewDelay(Constant(0.02), Profile{}, NewOutages([]Span{{From: time.Second, To: 2 * time.Second}}),
		func(time.Duration, *packet.Packet, link.DropCause) { drops++ })
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Duration{999 * time.Millisecond, time.Second, 1999 * time.Millisecond, 2 * time.Second} {
		d.Enqueue(at, &packet.Packet{})
	}
	if drops != 2 || d.Len() != 2 {
		t.Errorf("%d dropped, %d in flight; want 2 and 2", drops, d.Len())
	}
}

// BenchmarkDelay: per-packet cost of the scheduled delay line with a
// per-second path profile; 0 allocs/op once the ring has grown.
func BenchmarkDelay(b *testing.B) {
	pl := syntheticLog(3600)
	prof, out := pl.Delay(0, true)
	var pool packet.Pool
	d, _ := NewDelay(Constant(0.005), prof, out, func(_ time.Duration, p *packet.Packet, _ link.DropCause) { pool.Put(p) })
	benchStage(b, d, &pool)
}

// BenchmarkServer: per-packet cost of the scheduled-rate server through a
// 10 ms ramp every second.
func BenchmarkServer(b *testing.B) {
	var ch []Change
	for i := range 3600 {
		v := 100e6
		if i%2 == 1 {
			v = 50e6
		}
		ch = append(ch, Change{At: time.Duration(i) * time.Second, Ramp: 10 * time.Millisecond, Value: v})
	}
	prof, _ := NewProfile(100e6, ch)
	var pool packet.Pool
	q, _ := link.NewTailDrop(link.QueueLimit{Packets: 1000}, func(_ time.Duration, p *packet.Packet, _ link.DropCause) { pool.Put(p) })
	s, _ := NewServer(prof, q)
	benchStage(b, s, &pool)
}

func benchStage(b *testing.B, st link.Stage, pool *packet.Pool) {
	now := time.Duration(0)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		now += 120 * time.Microsecond
		p := pool.Get()
		p.Size = 1500
		st.Enqueue(now, p)
		for p := st.Dequeue(now); p != nil; p = st.Dequeue(now) {
			pool.Put(p)
		}
		if i == 1000 {
			b.ResetTimer()
		}
	}
}
