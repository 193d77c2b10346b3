package qdisc

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

func TestREDCurve(t *testing.T) {
	pr := redParams{minTh: 5, maxTh: 15, maxP: 0.1, gentle: true}
	for _, c := range []struct{ avg, want float64 }{
		{0, 0}, {4.9, 0}, {5, 0}, {10, 0.05}, {14, 0.09}, {15, 0.1}, {22.5, 0.55}, {30, 1}, {50, 1},
	} {
		if got := pr.pb(c.avg); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("p_b(%g) = %g, want %g", c.avg, got, c.want)
		}
	}
}

// holdQueue offers n arrivals to r while its queue is held at l packets
// (w_q = 1, so avg is the instantaneous queue) and returns the packets
// marked or dropped by the AQM.
func holdQueue(r *RED, l, n int, ect bool) {
	var pool packet.Pool
	for range l {
		p := pool.Get()
		p.Size = 1500
		r.q.Push(p)
	}
	for i := range n {
		p := pool.Get()
		p.Size, p.ECT = 1500, ect
		now := time.Duration(i) * time.Microsecond
		r.Enqueue(now, p)
		for r.Len() > l {
			pool.Put(r.Dequeue(now))
		}
	}
}

// TestREDDropProbability: with the queue held at l, Floyd & Jacobson 1993
// §7 spread the marks so that the gap between marks is uniform on
// {1, …, 1/p_b}; the marked fraction is then 2·p_b/(1 + p_b). Tolerance 4σ
// of a binomial count (the uniform gaps vary less than that).
func TestREDDropProbability(t *testing.T) {
	for _, l := range []int{7, 10, 14} {
		var drops int
		r := NewRED(REDMinTh, REDMaxTh, 1, 0.1, false, 12e6, link.QueueLimit{}, false, rng(3), func(time.Duration, *packet.Packet, link.DropCause) { drops++ })
		const n = 200000
		holdQueue(r, l, n, false)
		pb := r.params.pb(float64(l))
		f := 2 * pb / (1 + pb)
		sd := math.Sqrt(n * f * (1 - f))
		t.Logf("RED queue %d: p_b %.3f, dropped fraction %.4f (want %.4f)", l, pb, float64(drops)/n, f)
		if math.Abs(float64(drops)-n*f) > 4*sd {
			t.Errorf("queue %d: %d drops of %d, want %.0f ± %.0f", l, drops, n, n*f, 4*sd)
		}
	}
}

// TestREDECN: with ECN on, ECN-capable packets are marked instead of
// dropped (RFC 3168 §5); others are still dropped.
func TestREDECN(t *testing.T) {
	for _, ect := range []bool{true, false} {
		var drops int
		r := NewRED(REDMinTh, REDMaxTh, 1, 0.1, false, 12e6, link.QueueLimit{}, true, rng(3), func(time.Duration, *packet.Packet, link.DropCause) { drops++ })
		holdQueue(r, 10, 10000, ect)
		st := r.Stats()
		if ect && (drops != 0 || st.Marks == 0) {
			t.Errorf("ECT: %d drops, %d marks; want marks only", drops, st.Marks)
		}
		if !ect && (drops == 0 || st.Marks != 0) {
			t.Errorf("not ECT: %d drops, %d marks; want drops only", drops, st.Marks)
		}
	}
}

// TestAREDAdaptsMaxP: held above the target band, max_p grows by
// min(0.01, max_p/4) per interval (Floyd, Gummadi & Shenker 2001 §4)
// until it exceeds 0.5; held below, it decays by 0.9 until below 0.01.
func TestAREDAdaptsMaxP(t *testing.T) {
	r := NewARED(12e6, link.QueueLimit{}, false, rng(1), func(time.Duration, *packet.Packet, link.DropCause) {})
	pr := &r.params
	r.avg = pr.maxTh // above 0.6 of the band
	want := 0.1
	for k := 1; k <= 60; k++ {
		r.adapt.tick(time.Duration(k)*AREDInterval, r)
		if want <= aredMaxPHigh {
			want += min(aredAlphaMax, want/4)
		}
		if math.Abs(pr.maxP-want) > 1e-12 {
			t.Fatalf("interval %d: max_p %g, want %g", k, pr.maxP, want)
		}
	}
	r.avg = pr.minTh // below 0.4 of the band
	for k := 61; k <= 200; k++ {
		r.adapt.tick(time.Duration(k)*AREDInterval, r)
		if want >= aredMaxPLow {
			want *= aredBeta
		}
	}
	if math.Abs(pr.maxP-want) > 1e-12 || pr.maxP >= aredMaxPLow {
		t.Fatalf("after decay: max_p %g, want %g (< 0.01)", pr.maxP, want)
	}
}

func TestHeadDropKeepsNewest(t *testing.T) {
	var pool packet.Pool
	var dropped []uint64
	h := NewHeadDrop(link.QueueLimit{Packets: 3}, func(_ time.Duration, p *packet.Packet, c link.DropCause) {
		if c != link.DropHead {
			t.Errorf("cause %v, want head", c)
		}
		dropped = append(dropped, p.Seq)
	})
	for i := range 5 {
		p := pool.Get()
		p.Seq, p.Size = uint64(i), 1500
		h.Enqueue(0, p)
	}
	var kept []uint64
	for p := h.Dequeue(0); p != nil; p = h.Dequeue(0) {
		kept = append(kept, p.Seq)
	}
	if len(dropped) != 2 || dropped[0] != 0 || dropped[1] != 1 || len(kept) != 3 || kept[0] != 2 {
		t.Fatalf("dropped %v kept %v, want dropped [0 1] kept [2 3 4]", dropped, kept)
	}
}
