package transport

import (
	"testing"
	"time"

	"github.com/leolab/leolab/packet"
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

// An episode that ends (the cumulative ACK passes RecoveryPoint) while a
// segment above RecoveryPoint is still marked lost goes straight into a new
// episode on the same ACK, as Linux does (tcp_fastretrans_alert re-enters
// recovery while lost_out > 0): the controller sees no ACK in the Open
// state between them and a second loss episode to reduce for. Here segment
// 100 is lost twice, which stretches the first episode past the loss of
// segment 190, sent after it began.
func TestRecoveryContinuesWhileLost(t *testing.T) {
	ctrl := &fixedCC{cwnd: 80 * mss}
	p := newPath(t, SenderConfig{Bytes: 1000 * mss}, ctrl, mbps(50), 10*time.Millisecond, 10*time.Millisecond)
	sent100 := 0
	p.dropData = func(_ time.Duration, pk *packet.Packet) bool {
		switch pk.Seq {
		case 100 * mss:
			sent100++
			return sent100 <= 2 // the original and the first retransmission
		case 190 * mss:
			return !pk.Retrans
		}
		return false
	}
	p.check = true
	p.run(10 * time.Second)
	st := p.snd.Stats()
	if !st.Done || st.RTOs != 0 {
		t.Fatalf("done %v, RTOs %d; want done without RTO", st.Done, st.RTOs)
	}
	if len(ctrl.episodes) != 2 || ctrl.exits != 1 {
		t.Errorf("%d episodes at %v, %d exits from recovery; want 2 episodes back to back and one exit", len(ctrl.episodes), ctrl.episodes, ctrl.exits)
	}
	if st.Retransmits != 3 {
		t.Errorf("%d retransmits, want 3 (100 twice, 190 once)", st.Retransmits)
	}
}
