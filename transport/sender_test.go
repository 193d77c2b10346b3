package transport

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/packet"
)

const mss = packet.MSS

func TestInOrderTransfer(t *testing.T) {
	const n = 1_000_003 // not a multiple of the MSS: the last segment is short
	ctrl := &fixedCC{cwnd: 20 * mss}
	p := newPath(t, SenderConfig{Bytes: n}, ctrl, mbps(10), 20*time.Millisecond, 20*time.Millisecond)
	p.check = true
	p.run(10 * time.Second)
	st, rst := p.snd.Stats(), p.rcv.Stats()
	if !st.Done || rst.BytesReceived != n || st.BytesAcked != n {
		t.Fatalf("done %v, received %d, acked %d; want %d", st.Done, rst.BytesReceived, st.BytesAcked, n)
	}
	if st.Retransmits != 0 || st.RTOs != 0 || rst.DupSegments != 0 {
		t.Errorf("retransmits %d, RTOs %d, dup segments %d; want 0", st.Retransmits, st.RTOs, rst.DupSegments)
	}
	if segs := int64(math.Ceil(float64(n) / mss)); st.BytesSent != n || rst.Segments != segs {
		t.Errorf("sent %d bytes in %d segments; want %d in %d", st.BytesSent, rst.Segments, n, segs)
	}
	if p.pool.Outstanding != 0 {
		t.Errorf("%d packets not returned to the pool", p.pool.Outstanding)
	}
	// Window-limited: 20 segments per RTT. The RTT is 40 ms of propagation
	// plus serialisation of the window at 10 Mbit/s (20·1500 B = 24 ms,
	// partly overlapped): throughput must lie between window/(RTT+queue)
	// and the link rate.
	el := p.doneAt.Seconds()
	lo, hi := float64(n)/(float64(20*mss)/0.040)*0.9, float64(n)/(mbps(10)*mss/1500)
	if el < hi || el > lo*2 {
		t.Errorf("transfer took %.3fs; want between %.3fs and %.3fs", el, hi, lo*2)
	}
	if st.MinRTT < 40*time.Millisecond || st.MinRTT > 42*time.Millisecond {
		t.Errorf("min RTT %v; want 40 ms plus one serialisation (1.2 ms)", st.MinRTT)
	}
}

func TestBurstLossRepairedBySACK(t *testing.T) {
	ctrl := &fixedCC{cwnd: 40 * mss}
	p := runDrops(t, ctrl, mbps(20), segSeqs(100, 105, 1))
	st := p.snd.Stats()
	if !st.Done {
		t.Fatalf("transfer not done: acked %d", st.BytesAcked)
	}
	if st.RTOs != 0 || st.Retransmits != 5 || len(ctrl.episodes) != 1 {
		t.Errorf("RTOs %d, retransmits %d, loss episodes %d; want 0, 5, 1", st.RTOs, st.Retransmits, len(ctrl.episodes))
	}
	// Fast recovery takes about one RTT after the hole is seen, an RTO at
	// least 200 ms: the transfer of 1000 segments at 40 per ~25 ms RTT must
	// not include an RTO's delay.
	if ideal := 1000.0 / 40 * 0.0247; p.doneAt.Seconds() > ideal+0.1 {
		t.Errorf("done at %v; want < %.3fs (no RTO stall)", p.doneAt, ideal+0.1)
	}
}

func TestBlackoutTriggersRTOWithBackoff(t *testing.T) {
	ctrl := &fixedCC{cwnd: 20 * mss}
	const from, to = 500 * time.Millisecond, 2500 * time.Millisecond
	black := func(now time.Duration, _ *packet.Packet) bool { return now >= from && now < to }
	p := newPath(t, SenderConfig{Bytes: 2000 * mss}, ctrl, mbps(20), 20*time.Millisecond, 20*time.Millisecond)
	p.dropData, p.dropAck = black, black
	p.check = true
	p.run(30 * time.Second)
	st := p.snd.Stats()
	if !st.Done {
		t.Fatalf("transfer not done after blackout: acked %d", st.BytesAcked)
	}
	if len(ctrl.rtos) < 3 {
		t.Fatalf("RTOs at %v; want at least 3 during a 2 s blackout", ctrl.rtos)
	}
	// No RTT sample is taken during the blackout (Karn), so each expiry
	// doubles the previous interval exactly (RFC 6298 §5.5).
	var inBlack []time.Duration
	for _, r := range ctrl.rtos {
		if r < to+time.Second {
			inBlack = append(inBlack, r)
		}
	}
	for i := 2; i < len(inBlack); i++ {
		d1, d2 := inBlack[i-1]-inBlack[i-2], inBlack[i]-inBlack[i-1]
		if d2 != 2*d1 {
			t.Errorf("RTO interval %v after %v; want exactly double", d2, d1)
		}
	}
	if first := inBlack[0]; first < from+DefaultMinRTO || first > from+2*DefaultMinRTO+100*time.Millisecond {
		t.Errorf("first RTO at %v; want about one TLP + RTO (>= 200 ms) after the blackout began at %v", first, from)
	}
	if int64(len(ctrl.rtos)) != st.RTOs {
		t.Errorf("stats RTOs %d, controller saw %d", st.RTOs, len(ctrl.rtos))
	}
	// After the last RTO the rest goes at the window rate: at most 2000
	// segments at 20 per ~42 ms RTT (plus slack for the recovery round).
	last := ctrl.rtos[len(ctrl.rtos)-1]
	if limit := last + 2000/20*42*time.Millisecond + 200*time.Millisecond; p.doneAt < last || p.doneAt > limit {
		t.Errorf("done at %v, last RTO at %v; want done by %v", p.doneAt, last, limit)
	}
}

func TestTLPRepairsTailLoss(t *testing.T) {
	ctrl := &fixedCC{cwnd: 40 * mss}
	const segs = 20
	p := newPath(t, SenderConfig{Bytes: segs * mss}, ctrl, mbps(50), 15*time.Millisecond, 15*time.Millisecond)
	p.dropData = seqDropper((segs - 1) * mss)
	p.check = true
	p.run(5 * time.Second)
	st := p.snd.Stats()
	if !st.Done || st.TLPs != 1 || st.RTOs != 0 || st.Retransmits != 1 {
		t.Fatalf("done %v, TLPs %d, RTOs %d, retransmits %d; want true, 1, 0, 1", st.Done, st.TLPs, st.RTOs, st.Retransmits)
	}
	if len(ctrl.episodes) != 1 {
		t.Errorf("loss episodes %d; want 1 (TLP repaired a real loss, RFC 8985 §7.4)", len(ctrl.episodes))
	}
	// One segment outstanding: PTO = min(2·SRTT + 200 ms, RTO) after the
	// delayed ACK of segment 19 (Linux), then one RTT: well under the 1 s
	// an RTO with backoff or the initial RTO would cost. The distinguishing
	// facts are the counters above: a probe, no OnRTO, cwnd untouched.
	if p.doneAt > 500*time.Millisecond {
		t.Errorf("done at %v; want < 500 ms", p.doneAt)
	}
}

func TestTLPTwoTailLossesThenRACK(t *testing.T) {
	ctrl := &fixedCC{cwnd: 40 * mss}
	const segs = 20
	p := newPath(t, SenderConfig{Bytes: segs * mss}, ctrl, mbps(50), 15*time.Millisecond, 15*time.Millisecond)
	p.dropData = seqDropper((segs-2)*mss, (segs-1)*mss)
	p.check = true
	p.run(5 * time.Second)
	st := p.snd.Stats()
	// The probe resends the last segment; its SACK exposes the other hole to
	// RACK, which repairs it by fast recovery: 2 retransmissions, no RTO.
	if !st.Done || st.TLPs != 1 || st.RTOs != 0 || st.Retransmits != 2 {
		t.Fatalf("done %v, TLPs %d, RTOs %d, retransmits %d; want true, 1, 0, 2", st.Done, st.TLPs, st.RTOs, st.Retransmits)
	}
	if p.doneAt > 300*time.Millisecond {
		t.Errorf("done at %v; PTO with two segments out is 2·SRTT+2ms, so < 300 ms", p.doneAt)
	}
}

func TestDeliveryRateOnFixedBottleneck(t *testing.T) {
	for _, tc := range []struct {
		name string
		rate float64
	}{{"unpaced", 0}, {"paced-above-link", mbps(12)}, {"paced-below-link", mbps(8)}} {
		t.Run(tc.name, func(t *testing.T) {
			ctrl := &fixedCC{cwnd: 100 * mss, rate: tc.rate, keep: true}
			p := newPath(t, SenderConfig{}, ctrl, mbps(10), 20*time.Millisecond, 20*time.Millisecond)
			p.run(5 * time.Second)
			// Payload rate: the link serialises Size = Len + 52 bytes.
			want := mbps(10) * mss / (mss + packet.HeaderSize)
			if tc.rate > 0 {
				want = min(want, tc.rate) // pacing counts payload bytes
			}
			var rates []float64
			for _, s := range ctrl.samples {
				if s.Interval > 0 && !s.IsAppLimited && s.TotalDelivered > 200*mss {
					rates = append(rates, s.DeliveryRate)
				}
			}
			if len(rates) < 1000 {
				t.Fatalf("%d samples; want > 1000", len(rates))
			}
			slices.Sort(rates)
			med := rates[len(rates)/2]
			p5, p95 := rates[len(rates)/20], rates[len(rates)*19/20]
			t.Logf("payload rate %.0f B/s: samples p5 %.0f median %.0f p95 %.0f (n=%d)", want, p5, med, p95, len(rates))
			for _, r := range []float64{p5, med, p95} {
				if math.Abs(r/want-1) > 0.02 {
					t.Errorf("sample %.0f B/s off the payload rate %.0f by more than 2%%", r, want)
				}
			}
		})
	}
}

// pacedTimes returns the departure times of the first n segments of a
// bulk sender paced at rate bytes/s.
func pacedTimes(t *testing.T, cfg SenderConfig, rate float64, n int) []time.Duration {
	t.Helper()
	ctrl := &fixedCC{cwnd: 1000 * mss, rate: rate}
	pool := &packet.Pool{}
	s := NewSender(cfg, ctrl, pool)
	var times []time.Duration
	now := time.Duration(0)
	for len(times) < n {
		if pk := s.Next(now); pk != nil {
			times = append(times, now)
			pool.Put(pk)
			continue
		}
		w := s.NextWake()
		if w <= now {
			t.Fatalf("wake %v not after %v", w, now)
		}
		now = w
	}
	for i := 1; i < unpacedSegs; i++ {
		if times[i] != 0 {
			t.Fatalf("segment %d at %v: the first %d segments leave unpaced (Linux)", i, times[i], unpacedSegs)
		}
	}
	return times
}

func TestPacingSpacesPackets(t *testing.T) {
	const rate = 1e6 // bytes/s: one 1448-byte segment every 1.448 ms
	times := pacedTimes(t, SenderConfig{NoTSO: true}, rate, 40)
	gap := time.Duration(float64(mss) / rate * 1e9)
	for i := unpacedSegs + 1; i < len(times); i++ {
		if d := times[i] - times[i-1]; d != gap {
			t.Errorf("gap %d: %v; want %v", i, d, gap)
		}
	}
}

// With TSO (the default) segments leave in bursts of about 1 ms of data
// at the pacing rate (rate >> 10 bytes: 19531 B = 13 segments at 20 MB/s),
// one burst per 13 segment gaps: the average rate is unchanged.
func TestPacingTSOBursts(t *testing.T) {
	const rate = 20e6 // bytes/s
	const burst = 13  // (20e6 >> 10) / 1448
	times := pacedTimes(t, SenderConfig{}, rate, unpacedSegs+5*burst)
	// The 10th segment is the first paced one: it opens the first burst.
	gap := time.Duration(float64(mss) / rate * 1e9)
	for k := 0; k < 5; k++ {
		first := unpacedSegs - 1 + k*burst
		for i := first + 1; i < first+burst; i++ {
			if times[i] != times[first] {
				t.Fatalf("burst %d: segment %d at %v, burst start %v; want one instant", k, i, times[i], times[first])
			}
		}
		if k > 0 {
			if d := times[first] - times[first-burst]; d != burst*gap {
				t.Errorf("burst %d starts %v after the previous; want %v", k, d, burst*gap)
			}
		}
	}
}

// A burst is what the windows allowed when it left (one Linux skb): when
// the congestion window stops it, segments the window frees at the same
// instant (a later ACK of the same frame batch) wait for the pacer instead
// of joining the burst.
func TestWindowEndsTSOBurst(t *testing.T) {
	const rate = 20e6 // bytes/s: bursts of 13 segments
	ctrl := &fixedCC{cwnd: (unpacedSegs + 2) * mss, rate: rate}
	pool := &packet.Pool{}
	s := NewSender(SenderConfig{}, ctrl, pool)
	n := 0
	for pk := s.Next(0); pk != nil; pk = s.Next(0) {
		n++
		pool.Put(pk)
	}
	if n != unpacedSegs+2 {
		t.Fatalf("sent %d segments into a %d-segment window", n, unpacedSegs+2)
	}
	ctrl.cwnd += 4 * mss // the window opens at the same instant
	if pk := s.Next(0); pk != nil {
		t.Fatalf("segment %d joined the window-limited burst at its instant", pk.Seq/mss)
	}
	gap := time.Duration(float64(mss) / rate * 1e9)
	// The 10th segment opened the burst (TestPacingTSOBursts): 3 paced.
	if w := s.NextWake(); w != 3*gap {
		t.Errorf("next departure %v; want %v (the burst's 3 paced segments)", w, 3*gap)
	}
	sent := 0
	for pk := s.Next(3 * gap); pk != nil; pk = s.Next(3 * gap) {
		sent++
		pool.Put(pk)
	}
	if sent != 4 {
		t.Errorf("at the pacer's departure sent %d segments; want the 4 the window freed, in one burst", sent)
	}
}

func TestRWndLimitsSending(t *testing.T) {
	ctrl := &fixedCC{cwnd: 100 * mss}
	pool := &packet.Pool{}
	s := NewSender(SenderConfig{}, ctrl, pool)
	ack := &packet.Packet{Kind: packet.Ack, Ack: 0, Rwnd: 4 * mss}
	s.OnAck(0, ack)
	n := 0
	for pk := s.Next(0); pk != nil; pk = s.Next(0) {
		n++
		pool.Put(pk)
	}
	if n != 4 {
		t.Errorf("sent %d segments into a 4-segment window", n)
	}
}

// The send buffer caps unacknowledged data like a receive window does, and
// the default is 16 MiB (DefaultSndBuf).
func TestSndBufLimitsSending(t *testing.T) {
	for _, c := range []struct{ sndBuf, want int }{{10 * mss, 10}, {0, DefaultSndBuf / mss}} {
		ctrl := &fixedCC{cwnd: 20000 * mss}
		pool := &packet.Pool{}
		s := NewSender(SenderConfig{SndBuf: c.sndBuf}, ctrl, pool)
		n := 0
		for pk := s.Next(0); pk != nil; pk = s.Next(0) {
			n++
			pool.Put(pk)
		}
		if n != c.want {
			t.Errorf("SndBuf %d: sent %d segments; want %d", c.sndBuf, n, c.want)
		}
	}
}

// BenchmarkTransfer measures the per-segment cost of sender + receiver (and
// the test path's event loop) in a bulk transfer; one op is one segment.
func BenchmarkTransfer(b *testing.B) {
	for _, tc := range []struct {
		name     string
		loss     float64
		rate     float64
		cwnd     int
		autotune bool    // the receiver autotunes its window (rcvwnd.go)
		hostRate float64 // the sending host's egress limit (hostrate.go)
	}{
		{"lossless", 0, 0, 100, false, 0},
		{"lossless-paced", 0, mbps(90), 100, false, 0},
		{"lossless-host-limit", 0, 0, 100, false, 90e6}, // bits/s
		{"loss1pct", 0.01, 0, 100, false, 0},
		{"loss1pct-cwnd8000", 0.01, 0, 8000, false, 0}, // a 12 MB window, as on the real paths
		{"loss1pct-cwnd8000-autotune", 0.01, 0, 8000, true, 0},
	} {
		b.Run(tc.name, func(b *testing.B) {
			ctrl := &fixedCC{cwnd: tc.cwnd * mss, rate: tc.rate}
			cfg := SenderConfig{Bytes: int64(b.N) * mss, SndBuf: 2 * tc.cwnd * mss, MaxRateBps: tc.hostRate} // the window, not the buffer, limits
			p := newPath(b, cfg, ctrl, mbps(1000), 10*time.Millisecond, 10*time.Millisecond)
			if tc.autotune {
				p.rcv = NewReceiver(ReceiverConfig{}, p.pool)
			}
			if tc.loss > 0 {
				k := uint64(0)
				p.dropData = func(time.Duration, *packet.Packet) bool { k++; return k%100 == 37 }
			}
			b.ReportAllocs()
			b.ResetTimer()
			for !p.snd.Stats().Done {
				p.run(p.loop.Now() + time.Second)
			}
			b.StopTimer()
			b.ReportMetric(float64(p.loop.Fired())/float64(b.N), "events/op")
		})
	}
}
