package starlink

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/sim"
)

// rec is one delivered or dropped packet.
type rec struct {
	flow     packet.FlowID
	seq      uint64
	size     int
	sent, at time.Duration
	cause    link.DropCause
	queue    int // buffer length just before the drop (drops only)
}

// bench drives a Link from a sim.Loop: sources enqueue, a poll event
// dequeues at the link's NextEvent, and a sink records deliveries.
type bench struct {
	t         testing.TB
	loop      *sim.Loop
	l         *Link
	pool      packet.Pool
	pollAt    time.Duration
	poll      sim.Timer
	delivered []rec
	dropped   []rec
	keep      bool // record every packet (off in benchmarks)
	nDeliv    int
	nDrop     [link.NumDropCauses]int
}

func newBench(t testing.TB, dir string, p *profile.StarlinkProfile, epoch time.Duration) *bench {
	t.Helper()
	b := &bench{t: t, loop: sim.NewLoop(), keep: true, pollAt: -1}
	cfg := Config{Rand: sim.Stream(1, "starlink/"+dir), Drop: b.onDrop, Epoch: epoch, SlotSeed: 7}
	var err error
	if dir == "downlink" {
		b.l, err = NewDownlink(p, cfg)
	} else {
		b.l, err = NewUplink(p, cfg)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustProfile(t testing.TB, city string, ov map[string]any) *profile.StarlinkProfile {
	t.Helper()
	p, err := profile.Starlink(city, ov)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (b *bench) onDrop(now time.Duration, p *packet.Packet, c link.DropCause) {
	b.nDrop[c]++
	if b.keep {
		b.dropped = append(b.dropped, rec{flow: p.Flow, seq: p.Seq, size: p.Size, sent: p.SentAt, at: now, cause: c, queue: b.l.buf.Len()})
	}
	b.pool.Put(p)
}

// Fire is the poll event: deliver everything due, then re-arm.
func (b *bench) Fire(now time.Duration, _ int) {
	b.pollAt = -1
	for p := b.l.Dequeue(now); p != nil; p = b.l.Dequeue(now) {
		b.nDeliv++
		if b.keep {
			b.delivered = append(b.delivered, rec{flow: p.Flow, seq: p.Seq, size: p.Size, sent: p.SentAt, at: now})
		}
		b.pool.Put(p)
	}
	b.rearm()
}

func (b *bench) rearm() {
	ne := b.l.NextEvent()
	if ne == never || ne == b.pollAt {
		return
	}
	if b.pollAt >= 0 {
		if ne > b.pollAt {
			return // the earlier poll re-arms
		}
		b.loop.Cancel(b.poll)
	}
	b.pollAt = ne
	b.poll = b.loop.Schedule(ne, b, 0)
}

func (b *bench) send(now time.Duration, flow packet.FlowID, seq uint64, size int) {
	p := b.pool.Get()
	p.Flow, p.Seq, p.Size, p.SentAt, p.Kind = flow, seq, size, now, packet.Probe
	b.l.Enqueue(now, p)
	b.rearm()
}

// cbr is a constant-bit-rate source on [start, stop).
type cbr struct {
	b           *bench
	flow        packet.FlowID
	size        int
	gap         time.Duration
	stop        time.Duration
	seq         uint64
	onSend      func(now time.Duration) // optional probe, e.g. of the queue
	sentPackets int
}

func (b *bench) cbr(flow packet.FlowID, rateBps float64, size int, start, stop time.Duration) *cbr {
	s := &cbr{b: b, flow: flow, size: size, stop: stop,
		gap: time.Duration(float64(size) * 8 / rateBps * float64(time.Second))}
	b.loop.Schedule(start, s, 0)
	return s
}

func (s *cbr) Fire(now time.Duration, _ int) {
	if now >= s.stop {
		return
	}
	if s.onSend != nil {
		s.onSend(now)
	}
	s.b.send(now, s.flow, s.seq, s.size)
	s.seq++
	s.sentPackets++
	s.b.loop.Schedule(now+s.gap, s, 0)
}

// owds returns the one-way delays of flow's delivered packets sent in [from, to).
func (b *bench) owds(flow packet.FlowID, from, to time.Duration) []time.Duration {
	var out []time.Duration
	for _, r := range b.delivered {
		if r.flow == flow && r.sent >= from && r.sent < to {
			out = append(out, r.at-r.sent)
		}
	}
	return out
}

func percentile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}

// deliveredRate is the delivery rate (bits/s) over [from, to) at the sink.
func (b *bench) deliveredRate(from, to time.Duration) float64 {
	bytes := 0
	for _, r := range b.delivered {
		if r.at >= from && r.at < to {
			bytes += r.size
		}
	}
	return float64(bytes) * 8 / (to - from).Seconds()
}

// Acceptance 1: a 3000-packet line-rate burst into an idle downlink loses
// ~1500 packets (limit 1500, counted in packets), the oldest at each
// overflow; the same count with 100- and 1400-byte packets.
func TestHeadDropBurst(t *testing.T) {
	counts := map[int]int{}
	for _, size := range []int{100, 1400} {
		p := mustProfile(t, "", map[string]any{"pop.enabled": false})
		b := newBench(t, "downlink", p, 0)
		// 100 Gbit/s feeder, starting just after a frame so the whole burst
		// (<= 0.34 ms) falls between two frames: nothing is served meanwhile.
		start := p.TDMA.Frame*10 + time.Microsecond
		gap := time.Duration(float64(size) * 8 / 100e9 * float64(time.Second))
		for i := range 3000 {
			b.loop.Schedule(start+time.Duration(i)*gap, sim.HandlerFunc(func(now time.Duration, _ int) {
				b.send(now, 0, uint64(i), size)
			}), 0)
		}
		b.loop.RunUntil(2 * time.Second)
		lost := len(b.dropped)
		counts[size] = lost
		// Exactly 3000 - limit leave the buffer by drops during the burst
		// (AQM or head); random loss at service adds ~0.03 % of 1500.
		burstDrops := b.nDrop[link.DropHead] + b.nDrop[link.DropAQM]
		if burstDrops != 1500 {
			t.Errorf("size %d: %d head+AQM drops, want exactly 1500", size, burstDrops)
		}
		// The AQM takes about max_prob x (q/limit) of the arrivals as the
		// buffer fills (mean 1/2) and then stays full (1): ~112 of them.
		aqmWant := p.Downlink.AQM.MaxProb * (0.5*1500 + 1500)
		if got := float64(b.nDrop[link.DropAQM]); got > 1.5*aqmWant+10 {
			t.Errorf("size %d: %v AQM drops, want ~%.0f; the rest head drops", size, got, aqmWant)
		}
		// Head drops take the oldest: victims in sending order, all older
		// than every delivered packet; the last packet is delivered.
		var lastHead uint64
		for _, r := range b.dropped {
			if r.cause == link.DropHead {
				if r.seq < lastHead {
					t.Fatalf("size %d: head drop of %d after %d: not the oldest", size, r.seq, lastHead)
				}
				lastHead = r.seq
			}
		}
		for _, r := range b.delivered {
			if r.seq < lastHead {
				t.Fatalf("size %d: delivered %d older than head-dropped %d", size, r.seq, lastHead)
			}
		}
		if last := b.delivered[len(b.delivered)-1].seq; last != 2999 {
			t.Errorf("size %d: last delivered %d, want 2999 (the burst's tail survives)", size, last)
		}
	}
	if d := counts[100] - counts[1400]; d < -10 || d > 10 { // random loss only: binomial(1500, 3e-4) sd ~0.7
		t.Errorf("lost %d (100 B) vs %d (1400 B): limit must count packets", counts[100], counts[1400])
	}
}

// Acceptance 6: idle path. A sparse probe sees OWD = base + U(0, frame) and
// loss = random_loss within binomial tolerance.
func TestIdlePath(t *testing.T) {
	for _, dir := range []string{"downlink", "uplink"} {
		p := mustProfile(t, "", map[string]any{dir + ".random_loss": 0.01, dir + ".drift.owd_max": "0s"})
		a := p.Downlink
		if dir == "uplink" {
			a = p.Uplink
		}
		b := newBench(t, dir, p, 0)
		const n = 20000
		src := b.cbr(1, float64(100*8)/0.000997, 100, 0, n*997*time.Microsecond) // one packet per 0.997 ms
		b.loop.RunUntil(n*997*time.Microsecond + time.Second)
		lossRate := float64(b.nDrop[link.DropRandom]) / float64(src.sentPackets)
		sd := math.Sqrt(0.01 * 0.99 / float64(src.sentPackets))
		if math.Abs(lossRate-0.01) > 4*sd {
			t.Errorf("%s: random loss %.4f, want 0.0100 ± %.4f", dir, lossRate, 4*sd)
		}
		// Probes sent outside the reconfiguration outages see the idle OWD.
		var sum float64
		var cnt int
		minOWD := time.Hour
		for _, r := range b.delivered {
			ph := b.l.sched.phase(r.sent)
			if ph < 100*time.Millisecond {
				continue
			}
			d := r.at - r.sent
			sum += d.Seconds()
			cnt++
			minOWD = min(minOWD, d)
		}
		mean := time.Duration(sum / float64(cnt) * 1e9)
		want := a.BaseOWD + p.TDMA.Frame/2
		// Frame waits are uniform on [0, frame): sd of the mean frame/sqrt(12 n).
		tol := time.Duration(4 * float64(p.TDMA.Frame) / math.Sqrt(12*float64(cnt)))
		if d := mean - want; d < -tol || d > tol {
			t.Errorf("%s: mean idle OWD %v, want %v ± %v", dir, mean, want, tol)
		}
		if minOWD < a.BaseOWD || minOWD > a.BaseOWD+50*time.Microsecond {
			t.Errorf("%s: min idle OWD %v, want base %v", dir, minOWD, a.BaseOWD)
		}
	}
}

// Acceptance 6: each city's idle RTT (DL OWD + UL OWD + 2 x terrestrial,
// measured with sparse probes) is the observed minimum RTT within ±2 ms.
func TestCityIdleRTT(t *testing.T) {
	for _, city := range profile.Cities() {
		p := mustProfile(t, city, nil)
		var owd [2]time.Duration
		for i, dir := range []string{"downlink", "uplink"} {
			b := newBench(t, dir, p, 0)
			b.cbr(0, 150*8/0.0101, 150, 0, 2*time.Second) // one probe per 10.1 ms
			b.loop.RunUntil(3 * time.Second)
			owd[i] = percentile(b.owds(0, 0, 2*time.Second), 0)
		}
		rtt := owd[0] + owd[1] + 2*p.Terrestrial.OneWay
		want, err := profile.CityIdleRTT(city)
		if err != nil {
			t.Fatal(err)
		}
		if d := rtt - want; d < -2*time.Millisecond || d > 2*time.Millisecond {
			t.Errorf("%s: idle RTT %v, want %v ± 2 ms", city, rtt, want)
		}
	}
}

// Acceptance 9: packets per wall-second through the downlink at 340 Mbps
// (1500-byte packets, the allocation's maximum), without the event loop.
func BenchmarkDownlink340(b *testing.B) { benchDownlink340(b, nil) }

// The same with downlink.aqm.sojourn: every arrival and frame scans the
// active flows' heads for the oldest packet (allocation-free).
func BenchmarkDownlink340Sojourn(b *testing.B) {
	benchDownlink340(b, map[string]any{"downlink.aqm.sojourn": true})
}

func benchDownlink340(b *testing.B, ov map[string]any) {
	benchLink(b, NewDownlink, ov, 35294*time.Nanosecond, 1) // 1500 B at 340 Mbit/s
}

// The uplink with aqm.per_flow and aqm.sojourn: nine flows (the
// concurrent campaign's count) sharing 60 Mbit/s, each arrival reading
// its own flow's head (allocation-free).
func BenchmarkUplinkPerFlowSojourn(b *testing.B) {
	benchLink(b, NewUplink, map[string]any{"uplink.aqm.sojourn": true}, 200*time.Microsecond, 9) // 1500 B at 60 Mbit/s
}

// benchLink feeds a link made by newLink 1500 B packets every gap, in turn
// from flows flows, and releases what is due after each; it reports
// allocations, and packets and simulated seconds per wall second.
func benchLink(b *testing.B, newLink func(*profile.StarlinkProfile, Config) (*Link, error), ov map[string]any, gap time.Duration, flows int) {
	p := mustProfile(b, "", ov)
	bb := &bench{t: b, pollAt: -1, keep: false}
	l, err := newLink(p, Config{Rand: sim.Stream(1, "bench"), Drop: bb.onDrop})
	if err != nil {
		b.Fatal(err)
	}
	bb.l = l
	now := time.Duration(0)
	k := 0
	run := func(n int) {
		for range n {
			now += gap
			pk := bb.pool.Get()
			pk.Size, pk.Flow = 1500, packet.FlowID(k%flows)
			k++
			l.Enqueue(now, pk)
			for q := l.Dequeue(now); q != nil; q = l.Dequeue(now) {
				bb.nDeliv++
				bb.pool.Put(q)
			}
		}
	}
	run(200000) // warm up: allocation grown, buffers sized
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	run(b.N)
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "pkts/s")
	b.ReportMetric(float64(b.N)*gap.Seconds()/time.Since(start).Seconds(), "sim-s/wall-s")
}
