package transport

import (
	"testing"
	"time"

	"github.com/leolab/leolab/packet"
)

// The autotuned window starts at 10 segments and each segment raises it by
// 2 MSS (tcp_grow_window) until the 64 KiB clamp; every segment that grows
// it is ACKed at once, and once it stops growing the delayed-ACK policy
// (every second segment) resumes.
func TestRcvWindowGrowsPerSegment(t *testing.T) {
	pool := &packet.Pool{}
	r := NewReceiver(ReceiverConfig{MSS: mss, QuickAcks: -1}, pool)
	growing := (initRcvClamp - initRcvWndSegs*mss + 2*mss - 1) / (2 * mss) // segments until the clamp
	// All at one instant: no receiver RTT passes, so DRS leaves the clamp.
	now := time.Millisecond
	unacked := 0
	for k := range growing + 8 {
		r.OnData(now, &packet.Packet{Kind: packet.Data, Seq: uint64(k * mss), Len: mss, TxID: uint64(k + 1)})
		a := r.Next(now)
		unacked++
		want := min(initRcvWndSegs*mss+2*mss*(k+1), initRcvClamp)
		switch {
		case k < growing:
			if a == nil || a.Rwnd != want {
				t.Fatalf("segment %d: ACK %+v; want an immediate ACK with rwnd %d", k, a, want)
			}
		case unacked%2 == 1:
			if a != nil {
				t.Fatalf("segment %d: ACK at once after the window stopped growing; want every 2nd", k)
			}
			continue
		default:
			if a == nil || a.Rwnd != initRcvClamp {
				t.Fatalf("segment %d: ACK %+v; want the 2nd-segment ACK with rwnd %d", k, a, initRcvClamp)
			}
		}
		unacked = 0
		pool.Put(a)
	}
}

// A sender whose congestion window does not bind (10 000 segments: what
// Hybla's slow start reaches after a few ACKs) on a 100 Mbit/s, 50 ms path
// is clocked by the autotuned window: no ACK releases more than the two
// segments it covers plus the 2 MSS per segment of window growth (the
// first flight is the handshake's 10-segment window), and
// dynamic right-sizing still opens the window past twice the BDP, so the
// flow fills the link within a second. With a static window the first
// ACK releases almost the whole congestion window at once.
func TestRcvWindowClocksUnboundedSender(t *testing.T) {
	const rtt = 50 * time.Millisecond
	rate := mbps(100)
	bdp := int(rate * rtt.Seconds())
	for _, fixed := range []bool{false, true} {
		ctrl := &fixedCC{cwnd: 10000 * mss}
		p := newPath(t, SenderConfig{InitialRwnd: InitialRwnd(mss)}, ctrl, rate*float64(packet.MSS+packet.HeaderSize)/float64(packet.MSS), rtt/2, rtt/2)
		p.rcv = NewReceiver(ReceiverConfig{MSS: mss, NoAutoTune: fixed}, p.pool)
		burst, last, n := 0, time.Duration(-1), 0
		first := 0
		p.dropData = func(now time.Duration, _ *packet.Packet) bool { // counts the segments sent at one instant
			if now == 0 {
				first++
				return false
			}
			if now != last {
				last, n = now, 0
			}
			n++
			burst = max(burst, n)
			return false
		}
		p.run(2 * time.Second)
		st := p.snd.Stats()
		t.Logf("static %v: burst %d, clamp %d, receiver RTT %v, acked %d", fixed, burst, p.rcv.win.clamp, p.rcv.win.rtt, st.BytesAcked)
		if fixed {
			if burst < 5000 {
				t.Errorf("static window: largest burst %d segments; want most of the 10 000-segment cwnd", burst)
			}
			continue
		}
		if first != initRcvWndSegs {
			t.Errorf("first flight %d segments; want the handshake's window, %d", first, initRcvWndSegs)
		}
		if burst > 3*2 {
			t.Errorf("autotuned window: largest burst %d segments; want ≤ 6 (2 acked + 2×2 growth)", burst)
		}
		// The receiver's RTT: never below the path's, and within the
		// serialisation of a few segments of it while the window binds.
		if got := p.rcv.win.rtt; got < rtt || got > rtt+rtt/20 {
			t.Errorf("receiver RTT %v; want %v to %v", got, rtt, rtt+rtt/20)
		}
		if w := p.rcv.win.clamp; w < 2*bdp {
			t.Errorf("window clamp %d B after 2 s; want ≥ 2·BDP = %d B (DRS: 2·copied + 16 MSS)", w, 2*bdp)
		}
		// After ~3.4 RTTs of tripling from 10 segments the window covers the
		// BDP; the second second must run at the link rate (±5%).
		if got, want := float64(st.BytesAcked), rate*1.5; got < want {
			t.Errorf("acked %.0f B in 2 s; want ≥ %.0f (link rate after ≤ 0.5 s)", got, want)
		}
	}
}
