package transport

import "testing"

func TestSegRingGrowsAndFinds(t *testing.T) {
	r := newSegRing()
	const n = 3*initialRing + 7
	for i := 0; i < n; i++ {
		r.push(uint64(i)*mss, uint64(i+1)*mss)
		r.tsAppend(int64(i))
		if i%3 == 0 { // pop some to make the ring wrap
			r.tsRemove(r.head)
			r.popHead()
		}
	}
	if r.count() != n-(n+2)/3 {
		t.Fatalf("count %d", r.count())
	}
	for i := r.head; i < r.tail; i++ {
		if s := r.at(i); s.start != uint64(i)*mss {
			t.Fatalf("segment %d starts at %d", i, s.start)
		}
		if got := r.find(uint64(i) * mss); got != i {
			t.Fatalf("find(%d) = %d; want %d", uint64(i)*mss, got, i)
		}
		if got := r.find(uint64(i)*mss + 1); got != i+1 {
			t.Fatalf("find inside segment %d = %d", i, got)
		}
	}
	// The time list still links every remaining segment in order.
	k := r.head
	for i := r.tsHead; i >= 0; i = r.at(i).next {
		if i != k {
			t.Fatalf("time list at %d; want %d", i, k)
		}
		k++
	}
	if k != r.tail {
		t.Fatalf("time list ended at %d; want %d", k, r.tail)
	}
	r.tsRemove(r.head + 5)
	r.tsRemove(r.head + 5) // second removal is a no-op
	r.tsAppend(r.head + 5)
	if r.tsTail != r.head+5 || r.at(r.head+4).next != r.head+6 {
		t.Fatalf("move to tail failed")
	}
}
