package transport

import (
	"math/rand/v2"
	"testing"

	"github.com/leolab/leolab/packet"
)

func TestRangeSetAddMerges(t *testing.T) {
	var s rangeSet
	for _, b := range []packet.Block{{Start: 10, End: 20}, {Start: 30, End: 40}, {Start: 50, End: 60}, {Start: 20, End: 30}, {Start: 55, End: 70}, {Start: 0, End: 5}} {
		s.add(b)
	}
	want := []packet.Block{{Start: 0, End: 5}, {Start: 10, End: 40}, {Start: 50, End: 70}}
	if len(s.r) != len(want) {
		t.Fatalf("ranges %v; want %v", s.r, want)
	}
	for i := range want {
		if s.r[i] != want[i] {
			t.Fatalf("ranges %v; want %v", s.r, want)
		}
	}
	if got := s.uncovered(packet.Block{Start: 3, End: 60}, nil); len(got) != 2 || got[0] != (packet.Block{Start: 5, End: 10}) || got[1] != (packet.Block{Start: 40, End: 50}) {
		t.Errorf("uncovered %v", got)
	}
	s.removeBelow(15)
	if s.r[0] != (packet.Block{Start: 15, End: 40}) || s.bytes() != 45 {
		t.Errorf("after removeBelow: %v", s.r)
	}
	if b, ok := s.containing(69); !ok || b.End != 70 {
		t.Errorf("containing(69) = %v %v", b, ok)
	}
	if _, ok := s.containing(70); ok {
		t.Errorf("containing(70): end is exclusive")
	}
}

// TestRangeSetMatchesBitmap checks the set against a byte bitmap under random
// operations.
func TestRangeSetMatchesBitmap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 500
	for trial := 0; trial < 50; trial++ {
		var s rangeSet
		var bm [n]bool
		floor := uint64(0)
		for op := 0; op < 200; op++ {
			a := uint64(rng.IntN(n))
			b := min(a+uint64(rng.IntN(40))+1, n)
			if rng.IntN(10) == 0 {
				floor = max(floor, a)
				s.removeBelow(floor)
			} else {
				blk := packet.Block{Start: max(a, floor), End: max(b, floor)}
				unc := s.uncovered(blk, nil)
				var u uint64
				for _, x := range unc {
					for i := x.Start; i < x.End; i++ {
						if bm[i] {
							t.Fatalf("uncovered returned covered byte %d", i)
						}
					}
					u += x.Len()
				}
				s.add(blk)
				var fresh uint64
				for i := blk.Start; i < blk.End; i++ {
					if !bm[i] {
						fresh++
					}
					bm[i] = true
				}
				if u != fresh {
					t.Fatalf("uncovered %d bytes; %d were new", u, fresh)
				}
			}
			for i := uint64(0); i < floor; i++ {
				bm[i] = false
			}
			var cnt uint64
			for i := range bm {
				if bm[i] {
					cnt++
				}
				if _, ok := s.containing(uint64(i)); ok != bm[i] {
					t.Fatalf("byte %d: set %v bitmap %v", i, ok, bm[i])
				}
			}
			if !s.valid() || s.bytes() != cnt {
				t.Fatalf("invalid set %v (bytes %d, want %d)", s.r, s.bytes(), cnt)
			}
		}
	}
}
