package transport

import (
	"testing"
	"time"

	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
)

// rx is a receiver test scenario: deliver segments by index, collect ACKs.
type rx struct {
	t    *testing.T
	pool *packet.Pool
	r    *Receiver
	tx   uint64
}

// newRx builds a receiver with a static window (the ACK policy is tested
// here; rcvwnd_test.go tests the autotuned window and its quick ACKs).
func newRx(t *testing.T, cfg ReceiverConfig) *rx {
	cfg.NoAutoTune = true
	pool := &packet.Pool{}
	return &rx{t: t, pool: pool, r: NewReceiver(cfg, pool)}
}

// seg delivers segment k (MSS-sized) at now and returns the ACK sent at once,
// or nil.
func (x *rx) seg(now time.Duration, k uint64, ce bool) *packet.Packet {
	x.tx++
	d := &packet.Packet{Kind: packet.Data, Seq: k * mss, Len: mss, TxID: x.tx, CE: ce}
	x.r.OnData(now, d)
	return x.r.Next(now)
}

func TestReceiverQuickAckThenDelayed(t *testing.T) {
	x := newRx(t, ReceiverConfig{})
	now := time.Duration(0)
	for k := uint64(0); k < DefaultQuickAcks; k++ {
		now += time.Millisecond
		if a := x.seg(now, k, false); a == nil || a.Ack != (k+1)*mss {
			t.Fatalf("quick-ack segment %d: ack %+v; want immediate ACK of %d", k, a, (k+1)*mss)
		}
	}
	// Quick-ack mode over: every second segment is ACKed.
	for k := uint64(DefaultQuickAcks); k < DefaultQuickAcks+6; k++ {
		now += time.Millisecond
		a := x.seg(now, k, false)
		odd := (k-DefaultQuickAcks)%2 == 1
		if (a != nil) != odd {
			t.Fatalf("segment %d: ACK %v; want ACK only on every 2nd segment", k, a != nil)
		}
		if a != nil {
			if a.Ack != (k+1)*mss || a.Echo != x.tx || a.NSack != 0 || a.Size != packet.AckSize {
				t.Errorf("ack %+v", a)
			}
			x.pool.Put(a)
		}
	}
}

func TestReceiverDelayedAckTimer(t *testing.T) {
	x := newRx(t, ReceiverConfig{QuickAcks: -1})
	if a := x.seg(10*time.Millisecond, 0, false); a != nil {
		t.Fatalf("lone segment ACKed at once without quick-ack")
	}
	if w := x.r.NextWake(); w != 50*time.Millisecond {
		t.Fatalf("delayed-ACK wake %v; want 10ms + 40ms", w)
	}
	if a := x.r.Next(49 * time.Millisecond); a != nil {
		t.Fatalf("ACK before the timer")
	}
	a := x.r.Next(50 * time.Millisecond)
	if a == nil || a.Ack != mss {
		t.Fatalf("timer ACK %+v; want ACK of %d", a, mss)
	}
	if w := x.r.NextWake(); w != sim.Never {
		t.Errorf("wake %v after ACK; want Never", w)
	}
}

func TestReceiverSackBlocks(t *testing.T) {
	x := newRx(t, ReceiverConfig{QuickAcks: -1, CompSackNr: -1}) // every SACK at once
	x.seg(0, 0, false)
	x.seg(0, 1, false) // ACK of 2 segments
	// Holes at 2 and 5 and 8: deliver 3,4 then 6,7 then 9.
	want := []struct {
		k      uint64
		blocks []packet.Block
	}{
		{3, []packet.Block{{Start: 3 * mss, End: 4 * mss}}},
		{4, []packet.Block{{Start: 3 * mss, End: 5 * mss}}},
		{6, []packet.Block{{Start: 6 * mss, End: 7 * mss}, {Start: 3 * mss, End: 5 * mss}}},
		{7, []packet.Block{{Start: 6 * mss, End: 8 * mss}, {Start: 3 * mss, End: 5 * mss}}},
		{9, []packet.Block{{Start: 9 * mss, End: 10 * mss}, {Start: 6 * mss, End: 8 * mss}, {Start: 3 * mss, End: 5 * mss}}},
		{4, nil}, // duplicate inside a block: DSACK first
	}
	for i, w := range want {
		a := x.seg(time.Duration(i+1)*time.Millisecond, w.k, false)
		if a == nil {
			t.Fatalf("step %d: out-of-order segment not ACKed at once (RFC 5681 §4.2)", i)
		}
		if a.Ack != 2*mss {
			t.Errorf("step %d: cumulative ack %d; want %d", i, a.Ack, 2*mss)
		}
		got := a.Sacks()
		if w.blocks == nil {
			if len(got) == 0 || got[0] != (packet.Block{Start: 4 * mss, End: 5 * mss}) {
				t.Errorf("duplicate: blocks %v; want DSACK [4,5)·MSS first", got)
			}
			continue
		}
		if len(got) != len(w.blocks) {
			t.Fatalf("step %d: blocks %v; want %v", i, got, w.blocks)
		}
		for j := range got {
			if got[j] != w.blocks[j] {
				t.Errorf("step %d: blocks %v; want %v (most recent first)", i, got, w.blocks)
				break
			}
		}
		if wantSize := packet.AckSize + sackOptionBase + len(got)*packet.SackBlockSize; a.Size != wantSize {
			t.Errorf("step %d: size %d; want %d", i, a.Size, wantSize)
		}
		// RCV.NXT stays at segment 2, so the edge the first ACK offered
		// (2 MSS + DefaultRwnd) stays: the out-of-order data eats the free
		// space, not the offered window (Linux tcp_select_window).
		if a.Rwnd != DefaultRwnd {
			t.Errorf("step %d: rwnd %d with %d bytes out of order; want %d (the offered edge kept)", i, a.Rwnd, x.r.ooo.bytes(), DefaultRwnd)
		}
	}
	// Filling hole 2 pulls in 3,4 and ACKs at once.
	a := x.seg(10*time.Millisecond, 2, false)
	if a == nil || a.Ack != 5*mss || len(a.Sacks()) != 2 {
		t.Fatalf("gap fill: %+v; want immediate ACK of %d with 2 blocks", a, 5*mss)
	}
	if got := x.r.Stats(); got.DupSegments != 1 || got.OutOfOrder != 5 || got.BytesReceived != 5*mss {
		t.Errorf("stats %+v", got)
	}
}

func TestReceiverEchoesCE(t *testing.T) {
	x := newRx(t, ReceiverConfig{})
	if a := x.seg(0, 0, true); a == nil || !a.ECE {
		t.Fatalf("CE not echoed: %+v", a)
	}
	if a := x.seg(0, 1, false); a == nil || a.ECE {
		t.Fatalf("ECE on an ACK of unmarked data: %+v", a)
	}
}

// SACK compression (Linux __tcp_ack_snd_check): per RCV.NXT, three
// duplicate ACKs at once, then one per CompSackDelay or per CompSackNr
// held back; a new RCV.NXT starts the count again.
func TestReceiverSackCompression(t *testing.T) {
	x := newRx(t, ReceiverConfig{QuickAcks: -1, CompSackNr: 5})
	x.seg(0, 0, false)
	x.seg(0, 1, false) // ACK of 2 segments; segment 2 is lost
	now := time.Millisecond
	k := uint64(3)
	for i := 0; i < compSackImmediate; i++ {
		if a := x.seg(now, k, false); a == nil || a.Ack != 2*mss {
			t.Fatalf("duplicate ACK %d: %+v; want at once", i+1, a)
		}
		k++
	}
	// The next ones wait for the 1 ms timer.
	if a := x.seg(now, k, false); a != nil {
		t.Fatalf("4th duplicate ACK sent at once; want compressed")
	}
	k++
	if w := x.r.NextWake(); w != now+DefaultCompSackDelay {
		t.Fatalf("wake %v; want the compression timer at %v", w, now+DefaultCompSackDelay)
	}
	x.seg(now+500*time.Microsecond, k, false)
	k++
	a := x.r.Next(now + DefaultCompSackDelay)
	if a == nil || a.Sacks()[0] != (packet.Block{Start: 3 * mss, End: k * mss}) {
		t.Fatalf("timer ACK %+v; want the block [3, %d)·MSS", a, k)
	}
	// CompSackNr (5) held back forces an ACK before the timer.
	now += 2 * time.Millisecond
	var sent int
	for i := 0; i < 6; i++ {
		if x.seg(now, k, false) != nil {
			sent++
		}
		k++
	}
	if sent != 1 {
		t.Errorf("%d ACKs for 6 segments with 5 held back at most; want 1", sent)
	}
	// Filling the hole ACKs at once; a new hole gets three fresh duplicates.
	if a := x.seg(now, 2, false); a == nil || a.Ack != k*mss {
		t.Fatalf("gap fill: %+v; want ACK of %d at once", a, k*mss)
	}
	for i := 0; i < compSackImmediate; i++ {
		if x.seg(now, k+1+uint64(i), false) == nil {
			t.Fatalf("duplicate %d after a new hole not ACKed at once", i+1)
		}
	}
}
