package emu

import (
	"testing"

	"github.com/leolab/leolab/packet"
)

func TestSlabReuseAndGrowth(t *testing.T) {
	var s slab
	seen := map[uint32]bool{}
	for k := 0; k < slabChunk+1; k++ {
		i := s.get()
		if seen[i] {
			t.Fatalf("buffer %d handed out twice", i)
		}
		seen[i] = true
		if len(s.bufs[i]) != bufSize {
			t.Fatalf("buffer %d has %d bytes, want %d", i, len(s.bufs[i]), bufSize)
		}
	}
	if len(s.bufs) != 2*slabChunk || s.inUse() != slabChunk+1 {
		t.Fatalf("bufs %d inUse %d, want %d %d", len(s.bufs), s.inUse(), 2*slabChunk, slabChunk+1)
	}
	for i := range seen {
		s.put(i)
	}
	if s.inUse() != 0 {
		t.Fatalf("inUse %d after returning all", s.inUse())
	}
	i := s.get()
	s.n[i] = 3
	copy(s.bufs[i], "abc")
	if got := string(s.bytes(&packet.Packet{TxID: uint64(i)})); got != "abc" {
		t.Fatalf("bytes = %q", got)
	}
	// Buffers must not overlap: writing past one's end must fail, not spill.
	if cap(s.bufs[i]) != bufSize {
		t.Fatalf("buffer capacity %d, want %d (no spill into the next)", cap(s.bufs[i]), bufSize)
	}
}

func BenchmarkSlabGetPut(b *testing.B) {
	var s slab
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.put(s.get())
	}
}
