package transport

import (
	"testing"
	"time"
)

// A burst that loses every other segment, with the receiver's delayed ACKs,
// is loss, not reordering: the ACK that first SACKs above a hole also
// cumulatively covers the in-order segment whose ACK was held back. Judged
// against the FACK point after that ACK's own SACK blocks, the held-back
// segment would look reordered, RACK would keep a min_rtt/4 reordering
// window through recovery, and late retransmissions would follow (Linux
// judges against prior_fack).
func TestAlternateLossIsNotReordering(t *testing.T) {
	for first := uint64(100); first < 104; first++ { // both delayed-ACK parities
		ctrl := &fixedCC{cwnd: 80 * mss}
		drops := segSeqs(first, first+40, 2)
		p := runDrops(t, ctrl, mbps(50), drops)
		st := p.snd.Stats()
		if !st.Done || st.RTOs != 0 {
			t.Fatalf("first drop %d: done %v, RTOs %d; want done without RTO", first, st.Done, st.RTOs)
		}
		if p.snd.rack.reordSeen {
			t.Errorf("first drop %d: reordering seen on a FIFO path", first)
		}
		if st.Retransmits != int64(len(drops)) || len(ctrl.episodes) != 1 {
			t.Errorf("first drop %d: %d retransmits in %d episodes; want %d in 1", first, st.Retransmits, len(ctrl.episodes), len(drops))
		}
	}
}

// A segment that overtakes nothing is not reordering; one that arrives after
// segments sent later is, and RACK then waits a reordering window instead of
// retransmitting it (RFC 8985 §6.2 step 3).
func TestReorderingDetected(t *testing.T) {
	ctrl := &fixedCC{cwnd: 40 * mss}
	p := newPath(t, SenderConfig{Bytes: 400 * mss}, ctrl, mbps(50), 10*time.Millisecond, 10*time.Millisecond)
	var n int
	p.jitter = func() time.Duration {
		n++
		if n == 150 { // two later segments (0.24 ms each) overtake this one
			return 500 * time.Microsecond
		}
		return 0
	}
	p.check = true
	p.run(10 * time.Second)
	st := p.snd.Stats()
	if !st.Done || !p.snd.rack.reordSeen {
		t.Fatalf("done %v, reordering seen %v; want both", st.Done, p.snd.rack.reordSeen)
	}
	// Two SACKed segments are below DupThresh and the delay is inside
	// RACK's reordering window (min_rtt/4 = 5 ms): nothing is retransmitted.
	if st.Retransmits != 0 {
		t.Errorf("%d retransmits; want 0 (the reordered segment was never lost)", st.Retransmits)
	}
}
