package packet

import "testing"

func TestPoolReuses(t *testing.T) {
	var pl Pool
	a := pl.Get()
	a.Seq = 42
	pl.Put(a)
	b := pl.Get()
	if b != a {
		t.Fatalf("pool did not reuse the returned packet")
	}
	if b.Seq != 0 {
		t.Fatalf("reused packet not zeroed: Seq=%d", b.Seq)
	}
	if pl.Allocated != 1 || pl.Outstanding != 1 {
		t.Fatalf("Allocated=%d Outstanding=%d, want 1 1", pl.Allocated, pl.Outstanding)
	}
}

func TestFIFOOrderAndBytes(t *testing.T) {
	var pl Pool
	var q FIFO
	for i := 0; i < 5; i++ {
		p := pl.Get()
		p.Seq = uint64(i)
		p.Size = 100 * (i + 1)
		q.Push(p)
	}
	if q.Len() != 5 || q.Bytes() != 1500 {
		t.Fatalf("Len=%d Bytes=%d, want 5 1500", q.Len(), q.Bytes())
	}
	for i := 0; i < 5; i++ {
		p := q.Pop()
		if p.Seq != uint64(i) {
			t.Fatalf("pop %d: Seq=%d", i, p.Seq)
		}
	}
	if q.Pop() != nil || q.Len() != 0 || q.Bytes() != 0 {
		t.Fatalf("queue not empty after draining")
	}
}

func BenchmarkPoolFIFO(b *testing.B) {
	var pl Pool
	var q FIFO
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p := pl.Get()
		p.Size = 1500
		q.Push(p)
		if q.Len() > 64 {
			pl.Put(q.Pop())
		}
	}
}
