package starlink

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// arrivalLog records, for each arrival, the queue the AQM saw and whether
// the AQM dropped the packet.
type arrivalLog struct {
	q       []int
	dropped []bool
	maxQ    int
}

func (a *arrivalLog) hook(b *bench, s *cbr, perFlow bool) {
	s.onSend = func(now time.Duration) {
		b.l.advance(now) // Enqueue's own advance is then a no-op
		q := b.l.buf.Len()
		if perFlow {
			q = b.l.buf.flowLen(s.flow)
		}
		before := b.nDrop[link.DropAQM]
		a.maxQ = max(a.maxQ, b.l.buf.Len())
		a.q = append(a.q, q)
		// The send happens right after this hook; look at the result at
		// the next call.
		a.dropped = append(a.dropped, false)
		i := len(a.dropped) - 1
		b.loop.Schedule(now, sentCheck{b, a, i, before}, 0)
	}
}

type sentCheck struct {
	b      *bench
	a      *arrivalLog
	i      int
	before int
}

func (c sentCheck) Fire(time.Duration, int) {
	c.a.dropped[c.i] = c.b.nDrop[link.DropAQM] > c.before
}

// Acceptance 4, uplink: a CBR above the allocation keeps the queue below
// 1000 packets, and the drop probability rises linearly with the flow's
// queue over 0-250 packets (p = max_prob x q / max_packets).
func TestAQMUplinkLinear(t *testing.T) {
	p := mustProfile(t, "", nil)
	var log arrivalLog
	for _, rate := range []float64{64e6, 70e6, 80e6, 100e6} {
		b := newBench(t, "uplink", p, 0)
		s := b.cbr(0, rate, 1500, 0, 3*time.Second)
		log.hook(b, s, true)
		b.loop.RunUntil(3 * time.Second)
	}
	if log.maxQ >= 1000 {
		t.Errorf("uplink queue reached %d packets, want < 1000", log.maxQ)
	}
	const bin = 25
	var n, d [10]float64
	for i, q := range log.q {
		if q < 250 {
			n[q/bin]++
			if log.dropped[i] {
				d[q/bin]++
			}
		}
	}
	slope := p.Uplink.AQM.MaxProb / float64(p.Uplink.AQM.MaxPackets)
	used := 0
	for k := range n {
		if n[k] < 300 {
			continue
		}
		used++
		want := slope * (float64(k*bin) + bin/2 - 0.5) // mean q of a bin
		got := d[k] / n[k]
		tol := 4*math.Sqrt(want*(1-want)/n[k]) + slope*bin/2
		if math.Abs(got-want) > tol {
			t.Errorf("queue %d-%d: drop probability %.4f, want %.4f ± %.4f", k*bin, k*bin+bin-1, got, want, tol)
		}
	}
	if used < 6 {
		t.Errorf("only %d queue bins with data, want >= 6 across 0-250", used)
	}
}

// Acceptance 4, downlink: a CBR fills the queue past 1200 packets before
// drops become sustained, yet some AQM drops happen below 500 packets.
func TestAQMDownlinkLenient(t *testing.T) {
	// Without the PoP limiter the AQM decides inside Enqueue, where the log
	// can see it (with it, 24 us later at the hand-over).
	p := mustProfile(t, "", map[string]any{"pop.enabled": false})
	b := newBench(t, "downlink", p, 0)
	var log arrivalLog
	// Five 300 ms pulses of 500 Mbps, one per second.
	for k := range 5 {
		start := time.Duration(k)*time.Second + 100*time.Millisecond
		s := b.cbr(0, 500e6, 1500, start, start+300*time.Millisecond)
		log.hook(b, s, false)
	}
	b.loop.RunUntil(6 * time.Second)
	below500 := 0
	for _, r := range b.dropped {
		if r.cause == link.DropAQM && r.queue < 500 {
			below500++
		}
	}
	if below500 == 0 {
		t.Error("no AQM drop below 500 packets")
	}
	// On the first climb, the AQM drops a small share of arrivals until the
	// queue passes 1200 packets.
	var arr, drops, peak int
	for i, q := range log.q {
		if q >= 1200 {
			peak = q
			break
		}
		arr++
		if log.dropped[i] {
			drops++
		}
	}
	if peak < 1200 || float64(drops) > 0.05*float64(arr) {
		t.Errorf("first climb: %d of %d arrivals dropped below 1200 packets, peak %d", drops, arr, peak)
	}
	t.Logf("AQM drops below 500 packets: %d; first climb dropped %d of %d below 1200", below500, drops, arr)
}

// The adaptive AQM raises max_p while the mean queue is above the target
// band and lowers it (to the floor) below.
func TestAQMAdapt(t *testing.T) {
	p := mustProfile(t, "", nil)
	a := newAQM(p.Downlink.AQM, p.Downlink.Queue.LimitPackets)
	f := p.TDMA.Frame
	now := time.Duration(0)
	for ; now < 200*time.Millisecond; now += f {
		a.frame(now, 1400)
	}
	// Adjustments at 50, 100 and 150 ms above 0.85 x 1500 = 1275 (the one
	// at 200 ms is not reached): 0.05 x 2^3 = 0.4.
	if math.Abs(a.maxP-0.4) > 1e-9 {
		t.Errorf("max_p %.3f after 200 ms at 1400 packets, want 0.4", a.maxP)
	}
	if got := a.prob(750); math.Abs(got-0.2) > 1e-9 {
		t.Errorf("prob(750) = %v, want 0.2", got)
	}
	for ; now < 5*time.Second; now += f {
		a.frame(now, 10)
	}
	if a.maxP != p.Downlink.AQM.MaxProbFloor {
		t.Errorf("max_p %.4f after a quiet period, want the floor %.4f", a.maxP, p.Downlink.AQM.MaxProbFloor)
	}
	lin := newAQM(p.Uplink.AQM, p.Uplink.Queue.LimitPackets)
	for q, want := range map[int]float64{0: 0, 100: 0.1, 250: 0.25, 1000: 1, 3000: 1} {
		if got := lin.prob(float64(q)); math.Abs(got-want) > 1e-12 {
			t.Errorf("uplink prob(%d) = %v, want %v", q, got, want)
		}
	}
}

// With avg_time the AQM acts on RED's time-weighted average of the queue:
// a 5 ms burst of 100 packets moves a 100 ms average by 1-e^-0.05 of its
// height (~4.9 packets, below min_packets: no drop), a standing queue of
// 100 packets is reached within e^-10 after 1 s, and an idle second
// decays the average by e^-10 again (RED's idle correction).
func TestAQMAverage(t *testing.T) {
	p := mustProfile(t, "", map[string]any{"downlink.aqm.min_packets": 10, "downlink.aqm.avg_time": "100ms"})
	a := newAQM(p.Downlink.AQM, p.Downlink.Queue.LimitPackets)
	step := 100 * time.Microsecond
	now := time.Duration(0)
	var avg float64
	for ; now < 5*time.Millisecond; now += step {
		avg = a.queue(now, 100)
	}
	if want := 100 * -math.Expm1(-float64(now-step)/float64(100*time.Millisecond)); math.Abs(avg-want) > 1e-6 {
		t.Errorf("average after a 5 ms burst of 100 packets = %.4f, want %.4f", avg, want)
	}
	if pr := a.prob(avg); pr != 0 {
		t.Errorf("drop probability %.4f after a 5 ms burst, want 0 (average below min_packets 10)", pr)
	}
	for end := now + time.Second; now < end; now += step {
		avg = a.queue(now, 100)
	}
	if math.Abs(avg-100) > 100*math.Exp(-10) {
		t.Errorf("average after 1 s at 100 packets = %.6f, want 100 within %.4f", avg, 100*math.Exp(-10))
	}
	if pr := a.prob(avg); pr <= 0 {
		t.Errorf("drop probability 0 at a standing 100-packet average, want > 0")
	}
	if avg = a.queue(now+time.Second, 0); avg > 100*math.Exp(-10)+1e-9 {
		t.Errorf("average after 1 s idle = %.6f, want ≤ %.6f", avg, 100*math.Exp(-10))
	}
	inst := newAQM(p.Uplink.AQM, p.Uplink.Queue.LimitPackets) // avg_time 0
	if q := inst.queue(time.Second, 37); q != 37 {
		t.Errorf("instantaneous AQM queue = %v, want 37", q)
	}
}

// With aqm.sojourn the AQM's queue is the oldest packet's wait in packets
// at the allocation R. Under a constant overload the head of a flow's
// queue arrived when its queue was smaller; a flow offering λ whose
// backlog is Q has a head that has waited Q/λ, so the estimate is
// Q x R/λ. One flow offering 450 Mbit/s into the 340 Mbit/s maximum:
// estimate = count x 340/450. Three flows offering the same 450 Mbit/s as
// 250 + 100 + 100: DRR serves the two small ones all they offer (below a
// third of 340), so the big one holds the same backlog as the single flow
// and its head has waited Q/250: 450/250 = 1.8 times more per queued
// packet. At the same packet count the shared AQM sees more load when
// the backlog belongs to a flow with a smaller share.
func TestAQMSojourn(t *testing.T) {
	ov := map[string]any{"pop.enabled": false, "downlink.aqm.mode": "off", "downlink.aqm.sojourn": true,
		"downlink.queue.limit_packets": 100000, "downlink.drift.median_rate_change": "0bps", "downlink.random_loss": 0}
	p := mustProfile(t, "", ov)
	at := 1500 * time.Millisecond // allocation at its maximum (ramp 400 ms), before the 12 s boundary
	run := func(rates []float64) (est, count float64) {
		b := newBench(t, "downlink", p, 0)
		for f, r := range rates {
			b.cbr(packet.FlowID(f), r, 1500, 0, 2*time.Second)
		}
		b.loop.RunUntil(at)
		b.l.advance(at)
		if r := b.l.alloc.rate; math.Abs(r-340e6) > 1e3 {
			t.Fatalf("allocation %.0f bit/s at %v, want the 340 Mbit/s maximum", r, at)
		}
		return b.l.sojournPackets(at), float64(b.l.buf.Len())
	}
	// Tolerance: the wait is counted from a frame's batch (1.33 ms of
	// service, ~38 packets at 340 Mbit/s) plus 3 % for the first 400 ms,
	// when the allocation was still ramping.
	est1, n1 := run([]float64{450e6})
	if want := n1 * 340 / 450; math.Abs(est1-want) > 0.03*want+38 {
		t.Errorf("one flow: estimate %.0f packets at %.0f queued, want %.0f (count x 340/450)", est1, n1, want)
	}
	est3, n3 := run([]float64{250e6, 100e6, 100e6})
	if math.Abs(n3-n1) > 0.05*n1 {
		t.Errorf("three flows queue %.0f packets, one flow %.0f: want the same backlog within 5 %%", n3, n1)
	}
	if got, want := (est3/n3)/(est1/n1), 450.0/250; math.Abs(got-want) > 0.05*want {
		t.Errorf("three flows: estimate per queued packet %.3f times one flow's, want %.3f (450/250) ± 5 %%", got, want)
	}
	// An empty buffer has no oldest packet: the estimate is 0.
	b := newBench(t, "downlink", mustProfile(t, "", map[string]any{"pop.enabled": false}), 0)
	if at, ok := b.l.buf.oldest(); ok {
		t.Errorf("empty buffer: oldest at %v, want none", at)
	}
	if q := b.l.sojournPackets(0); q != 0 {
		t.Errorf("empty buffer: sojourn estimate %v, want 0", q)
	}
}

// With aqm.per_flow and aqm.sojourn each arrival is judged by the wait of
// its own flow's head packet, in packets at the allocation R. A flow
// offering 1.5 R from t = 0 into a constant R (multiplier 1, no drift)
// beside a sparse flow taking s = 1.2 Mbit/s (one packet per 10 ms): by t
// it has been served (R - s) t and offered 1.5 R t, so its head arrived at
// (R - s) t/(1.5 R) and has waited t (1 - 0.64) = 0.36 t, while its
// queue holds (0.5 R + s) t. With min 100 packets and p = 1 from 101 the
// first AQM drop comes when the wait reaches 100 packets at R (40 ms at
// 30 Mbit/s), at t = 111 ms; the packet count passed 100 at t = 75 ms,
// where a count-based AQM would have begun. The sparse flow, served within
// a frame or two, never waits near 40 ms and loses nothing to the AQM,
// although it arrives while the buffer holds hundreds of the other's
// packets. With n equal flows each offering 1.5 R/n, DRR serves each R/n:
// the head wait is t/3 again, with a queue of 0.5 R t/n, so per queued
// packet the estimate is n times one flow's.
func TestAQMPerFlowSojourn(t *testing.T) {
	const rate = 30e6 // seed 001's uplink base; multiplier 1 keeps it
	ov := map[string]any{"uplink.aqm.per_flow": true, "uplink.aqm.sojourn": true, "uplink.aqm.mode": "linear",
		"uplink.aqm.min_packets": 100, "uplink.aqm.max_packets": 101, "uplink.aqm.max_prob": 1,
		"uplink.alloc.multiplier": 1, "uplink.drift.median_rate_change": "0bps", "uplink.random_loss": 0}
	p := mustProfile(t, "", ov)
	b := newBench(t, "uplink", p, 0)
	b.cbr(0, 1.5*rate, 1500, 0, 300*time.Millisecond)
	b.cbr(1, 1500*8/0.010, 1500, 0, 300*time.Millisecond)
	b.loop.RunUntil(300 * time.Millisecond)
	first := never
	var sparse int
	for _, d := range b.dropped {
		if d.cause != link.DropAQM {
			t.Fatalf("flow %d: drop cause %v at %v, want only AQM drops", d.flow, d.cause, d.at)
		}
		if d.flow == 1 {
			sparse++
		} else if d.at < first {
			first = d.at
		}
	}
	// The wait grows in steps of a frame's service (1.33 ms), and t is
	// 1/0.36 times the wait: ±1.3 frames of wait is ±3.6 frames of t,
	// rounded up to 4.
	onset := 100 * 1500 * 8 / rate / 0.36 // seconds
	want := time.Duration(onset * float64(time.Second))
	if tol := 4 * p.TDMA.Frame; first < want-tol || first > want+tol {
		t.Errorf("first AQM drop of the overloaded flow at %v, want %v ± %v (its head's wait at 100 packets of R)", first, want, tol)
	}
	if sparse != 0 {
		t.Errorf("sparse flow lost %d packets to the AQM, want 0 (its own head never waits)", sparse)
	}

	off := mustProfile(t, "", map[string]any{"uplink.aqm.per_flow": true, "uplink.aqm.sojourn": true, "uplink.aqm.mode": "off",
		"uplink.alloc.multiplier": 1, "uplink.drift.median_rate_change": "0bps", "uplink.random_loss": 0})
	at := 200 * time.Millisecond
	perPacket := func(n int) float64 {
		b := newBench(t, "uplink", off, 0)
		for f := range n {
			b.cbr(packet.FlowID(f), 1.5*rate/float64(n), 1500, 0, time.Second)
		}
		b.loop.RunUntil(at)
		b.l.advance(at)
		est, q := b.l.flowSojournPackets(at, 0), float64(b.l.buf.flowLen(0))
		if n == 1 {
			// Head wait t/3 at R against a queue of 0.5 R t: 2/3 per packet,
			// within a frame's service (3.3 packets) of the estimate.
			if want := q * 2 / 3; math.Abs(est-want) > rate*p.TDMA.Frame.Seconds()/12000+1 {
				t.Errorf("one flow: estimate %.1f packets at %.0f queued, want %.1f (2/3 of the count)", est, q, want)
			}
		}
		return est / q
	}
	one, three := perPacket(1), perPacket(3)
	if got := three / one; math.Abs(got-3) > 0.15 {
		t.Errorf("three flows: estimate per queued packet %.3f times one flow's, want 3 ± 0.15", got)
	}
	b = newBench(t, "uplink", off, 0)
	if q := b.l.flowSojournPackets(0, 5); q != 0 {
		t.Errorf("empty flow: sojourn estimate %v, want 0", q)
	}

	// The outage is not counted: 1000 packets queued 0.1 ms before a
	// boundary wait out the 68 ms outage; 100 ms after the boundary the
	// head has waited 100.1 ms, of which 32.1 ms outside the outage, i.e.
	// 80.25 packets at R (not 250).
	b = newBench(t, "uplink", off, 0)
	bd := b.l.nextBoundary
	for i := range 1000 {
		b.send(bd-100*time.Microsecond, 0, uint64(i), 1500)
	}
	now := bd + 100*time.Millisecond
	b.l.advance(now)
	wantEst := (100.1 - off.Uplink.Outage.Duration.Seconds()*1e3) * 1e-3 * rate / 12000
	if got := b.l.flowSojournPackets(now, 0); math.Abs(got-wantEst) > 1e-6*wantEst {
		t.Errorf("after an outage: estimate %.4f packets, want %.4f (the head's wait outside the %v outage at R)", got, wantEst, off.Uplink.Outage.Duration)
	}
}
