package link

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
)

// drops counts drops by cause and recycles packets.
type drops struct {
	pool   *packet.Pool
	counts [NumDropCauses]int
}

func (d *drops) fn(now time.Duration, p *packet.Packet, c DropCause) {
	d.counts[c]++
	d.pool.Put(p)
}

func pkt(pool *packet.Pool, seq uint64, size int) *packet.Packet {
	p := pool.Get()
	p.Seq = seq
	p.Size = size
	return p
}

// drain polls s at its NextEvent until idle, returning release times.
func drain(s Stage) (times []time.Duration, seqs []uint64) {
	for t := s.NextEvent(); t != Never; t = s.NextEvent() {
		for p := s.Dequeue(t); p != nil; p = s.Dequeue(t) {
			times = append(times, t)
			seqs = append(seqs, p.Seq)
		}
	}
	return
}

func TestBottleneckSerialisationAndDropTail(t *testing.T) {
	var pool packet.Pool
	d := &drops{pool: &pool}
	// 12 Mbit/s: a 1500-byte packet takes exactly 1 ms.
	b, err := NewBottleneck(12e6, QueueLimit{Packets: 5}, d.fn)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		b.Enqueue(0, pkt(&pool, uint64(i), 1500))
	}
	// One on the wire + 5 waiting; 4 tail-dropped (the newest).
	if d.counts[DropTail] != 4 {
		t.Fatalf("tail drops = %d, want 4", d.counts[DropTail])
	}
	times, seqs := drain(b)
	if len(times) != 6 {
		t.Fatalf("released %d, want 6", len(times))
	}
	for i, tm := range times {
		if want := time.Duration(i+1) * time.Millisecond; tm != want || seqs[i] != uint64(i) {
			t.Fatalf("packet %d (seq %d) released at %v, want seq %d at %v", i, seqs[i], tm, i, want)
		}
	}
	// An arrival after idle starts at its own arrival time.
	b.Enqueue(100*time.Millisecond, pkt(&pool, 99, 1500))
	if got := b.NextEvent(); got != 101*time.Millisecond {
		t.Fatalf("after idle: release at %v, want 101ms", got)
	}
}

func TestBottleneckByteLimit(t *testing.T) {
	var pool packet.Pool
	d := &drops{pool: &pool}
	b, _ := NewBottleneck(1e6, QueueLimit{Bytes: 3000}, d.fn)
	for i := 0; i < 5; i++ {
		b.Enqueue(0, pkt(&pool, uint64(i), 1000))
	}
	// head on the wire + 3000 bytes waiting = 4 accepted.
	if d.counts[DropTail] != 1 {
		t.Fatalf("tail drops = %d, want 1", d.counts[DropTail])
	}
}

func TestDelayAndChain(t *testing.T) {
	var pool packet.Pool
	d := &drops{pool: &pool}
	b, _ := NewBottleneck(12e6, QueueLimit{}, d.fn)
	dl, _ := NewDelay(25 * time.Millisecond)
	c := NewChain(b, dl)
	for i := 0; i < 3; i++ {
		c.Enqueue(0, pkt(&pool, uint64(i), 1500))
	}
	times, _ := drain(c)
	for i, tm := range times {
		if want := time.Duration(i+1)*time.Millisecond + 25*time.Millisecond; tm != want {
			t.Fatalf("packet %d at %v, want %v", i, tm, want)
		}
	}
	if sn := c.Snapshot(0); sn.RateBps != 12e6 {
		t.Fatalf("chain snapshot rate %g, want 12e6", sn.RateBps)
	}
}

func TestLossRateBinomial(t *testing.T) {
	var pool packet.Pool
	d := &drops{pool: &pool}
	const n, p = 200000, 0.005
	l, _ := NewLoss(p, sim.Stream(1, "loss"), d.fn)
	for i := 0; i < n; i++ {
		l.Enqueue(0, pkt(&pool, uint64(i), 1500))
		if q := l.Dequeue(0); q != nil {
			pool.Put(q)
		}
	}
	got := float64(d.counts[DropRandom])
	sd := math.Sqrt(n * p * (1 - p))
	if math.Abs(got-n*p) > 4*sd {
		t.Fatalf("dropped %v of %d, want %v ± %.0f (4σ)", got, n, n*p, 4*sd)
	}
}

func TestBadParameters(t *testing.T) {
	if _, err := NewBottleneck(0, QueueLimit{}, nil); err == nil {
		t.Error("rate 0 accepted")
	}
	if _, err := NewDelay(-time.Millisecond); err == nil {
		t.Error("negative delay accepted")
	}
	if _, err := NewLoss(1, nil, nil); err == nil {
		t.Error("loss 1 accepted")
	}
	// issue 18: NaN loss passed the range check; 1e-300 bit/s made a
	// packet's serialisation time overflow into an infinitely fast link.
	if _, err := NewLoss(math.NaN(), nil, nil); err == nil {
		t.Error("loss NaN accepted")
	}
	for _, r := range []float64{1e-300, math.NaN(), math.Inf(1)} {
		if _, err := NewBottleneck(r, QueueLimit{}, nil); err == nil {
			t.Errorf("rate %g accepted", r)
		}
		q, _ := NewTailDrop(QueueLimit{}, nil)
		if _, err := NewServer(r, q); err == nil {
			t.Errorf("server rate %g accepted", r)
		}
	}
}

func BenchmarkBottleneckChain(b *testing.B) {
	var pool packet.Pool
	d := &drops{pool: &pool}
	bn, _ := NewBottleneck(100e6, QueueLimit{Packets: 417}, d.fn)
	dl, _ := NewDelay(25 * time.Millisecond)
	c := NewChain(bn, dl)
	b.ReportAllocs()
	now := time.Duration(0)
	for i := 0; i < b.N; i++ {
		c.Enqueue(now, pkt(&pool, uint64(i), 1500))
		now += 120 * time.Microsecond
		for p := c.Dequeue(now); p != nil; p = c.Dequeue(now) {
			pool.Put(p)
		}
	}
}
