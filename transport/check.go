package transport

import "fmt"

// checkInvariants recomputes the sender's incremental accounting from the
// segment records and reports the first inconsistency. It is O(outstanding)
// and meant for tests and debugging.
func (s *Sender) checkInvariants() error {
	if !s.sb.valid() {
		return fmt.Errorf("scoreboard not sorted/disjoint: %v", s.sb.r)
	}
	var sacked, lost, retrans, sackedSegs, pending int
	var sbBytes uint64
	expect := s.sndUna
	for i := s.ring.head; i < s.ring.tail; i++ {
		sg := s.ring.at(i)
		if sg.start != expect || sg.end <= sg.start {
			return fmt.Errorf("segment %d [%d,%d) breaks contiguity at %d", i, sg.start, sg.end, expect)
		}
		expect = sg.end
		switch {
		case sg.sacked:
			sacked += sg.len()
			sackedSegs++
			sbBytes += uint64(sg.len())
			if sg.lost || sg.retransOut {
				return fmt.Errorf("segment %d sacked and lost/retransmitted", i)
			}
		case sg.lost && !sg.retransOut:
			pending++
		}
		if sg.lost {
			lost += sg.len()
		}
		if sg.retransOut {
			retrans += sg.len()
		}
	}
	if expect != s.sndNxt {
		return fmt.Errorf("segments end at %d, snd.nxt %d", expect, s.sndNxt)
	}
	if sacked != s.sackedBytes || sackedSegs != s.sackedSegs || lost != s.lostBytes ||
		retrans != s.retransBytes || pending != s.lostPending {
		return fmt.Errorf("accounting: sacked %d/%d segs %d/%d lost %d/%d retrans %d/%d pending %d/%d",
			sacked, s.sackedBytes, sackedSegs, s.sackedSegs, lost, s.lostBytes, retrans, s.retransBytes, pending, s.lostPending)
	}
	if sbBytes != s.sb.bytes() {
		return fmt.Errorf("scoreboard covers %d bytes, sacked segments %d", s.sb.bytes(), sbBytes)
	}
	if err := s.checkTimeList(); err != nil {
		return err
	}
	if p := s.pipe(); p < 0 {
		return fmt.Errorf("pipe %d < 0", p)
	}
	return nil
}

// checkTimeList verifies that the time-ordered list holds exactly the
// segments in flight that are neither SACKed nor awaiting retransmission, in
// non-decreasing send time.
func (s *Sender) checkTimeList() error {
	want := 0
	for i := s.ring.head; i < s.ring.tail; i++ {
		if sg := s.ring.at(i); !sg.sacked && (!sg.lost || sg.retransOut) {
			want++
		}
	}
	n, prev := 0, int64(-1)
	for i := s.ring.tsHead; i >= 0; i = s.ring.at(i).next {
		sg := s.ring.at(i)
		if sg.sacked || sg.lost && !sg.retransOut {
			return fmt.Errorf("time list holds segment %d that is not in flight", i)
		}
		if prev >= 0 && s.ring.at(prev).xmit > sg.xmit {
			return fmt.Errorf("time list out of order at segment %d", i)
		}
		if sg.prev != prev {
			return fmt.Errorf("time list back link broken at segment %d", i)
		}
		prev = i
		n++
		if n > want {
			break
		}
	}
	if n != want {
		return fmt.Errorf("time list has %d segments, %d in flight", n, want)
	}
	return nil
}
