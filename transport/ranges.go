package transport

import "github.com/leolab/leolab/packet"

// rangeSet is a set of bytes held as sorted, disjoint, non-adjacent half-open
// ranges. It backs the sender's SACK scoreboard and the receiver's
// out-of-order buffer. Its slice grows to the largest number of holes seen and
// is reused afterwards, so steady-state use does not allocate.
type rangeSet struct {
	r []packet.Block
}

// len returns the number of ranges.
func (s *rangeSet) len() int { return len(s.r) }

// bytes returns the number of bytes covered.
func (s *rangeSet) bytes() uint64 {
	var n uint64
	for _, b := range s.r {
		n += b.Len()
	}
	return n
}

// search returns the index of the first range whose End >= seq.
func (s *rangeSet) search(seq uint64) int {
	lo, hi := 0, len(s.r)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.r[m].End < seq {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// add inserts b, merging it with every range it overlaps or touches, and
// returns the index of the range that now contains b.
func (s *rangeSet) add(b packet.Block) int {
	if b.End <= b.Start {
		return -1
	}
	i := s.search(b.Start) // first range that could touch b
	j := i
	for j < len(s.r) && s.r[j].Start <= b.End {
		b.Start = min(b.Start, s.r[j].Start)
		b.End = max(b.End, s.r[j].End)
		j++
	}
	switch {
	case j == i: // no overlap: insert
		s.r = append(s.r, packet.Block{})
		copy(s.r[i+1:], s.r[i:])
		s.r[i] = b
	default: // replace r[i:j] by b
		s.r[i] = b
		s.r = append(s.r[:i+1], s.r[j:]...)
	}
	return i
}

// removeBelow drops every byte below seq.
func (s *rangeSet) removeBelow(seq uint64) {
	k := 0
	for k < len(s.r) && s.r[k].End <= seq {
		k++
	}
	if k > 0 {
		s.r = append(s.r[:0], s.r[k:]...)
	}
	if len(s.r) > 0 && s.r[0].Start < seq {
		s.r[0].Start = seq
	}
}

// first returns the lowest range; ok is false when the set is empty.
func (s *rangeSet) first() (packet.Block, bool) {
	if len(s.r) == 0 {
		return packet.Block{}, false
	}
	return s.r[0], true
}

// containing returns the range that contains seq; ok is false if none does.
func (s *rangeSet) containing(seq uint64) (packet.Block, bool) {
	i := s.search(seq + 1)
	if i < len(s.r) && s.r[i].Start <= seq {
		return s.r[i], true
	}
	return packet.Block{}, false
}

// uncovered appends to out the parts of b not covered by the set, in order,
// and returns the extended slice.
func (s *rangeSet) uncovered(b packet.Block, out []packet.Block) []packet.Block {
	cur := b.Start
	for i := s.search(b.Start + 1); i < len(s.r) && cur < b.End; i++ {
		r := s.r[i]
		if r.Start >= b.End {
			break
		}
		if r.Start > cur {
			out = append(out, packet.Block{Start: cur, End: r.Start})
		}
		cur = max(cur, r.End)
	}
	if cur < b.End {
		out = append(out, packet.Block{Start: cur, End: b.End})
	}
	return out
}

// valid reports whether the ranges are non-empty, sorted, disjoint and
// non-adjacent (the invariant every method keeps).
func (s *rangeSet) valid() bool {
	for i, b := range s.r {
		if b.End <= b.Start {
			return false
		}
		if i > 0 && s.r[i-1].End >= b.Start {
			return false
		}
	}
	return true
}
