package ptot

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
)

// counter counts drops by cause and recycles packets.
type counter struct {
	pool   packet.Pool
	counts [link.NumDropCauses]int
}

func (c *counter) fn(_ time.Duration, p *packet.Packet, cause link.DropCause) {
	c.counts[cause]++
	c.pool.Put(p)
}

// offer sends n packets evenly over [from, to) and returns how many the
// stage dropped.
func offer(l *Loss, c *counter, from, to time.Duration, n int) int {
	before := c.counts[link.DropRandom] + c.counts[link.DropOutage]
	for i := range n {
		t := from + time.Duration(int64(to-from)*int64(i)/int64(n))
		l.Enqueue(t, c.pool.Get())
		for p := l.Dequeue(t); p != nil; p = l.Dequeue(t) {
			c.pool.Put(p)
		}
	}
	return c.counts[link.DropRandom] + c.counts[link.DropOutage] - before
}

// within4Sigma reports whether k drops of n agree with probability p: the
// binomial's mean np and standard deviation √(np(1−p)); 4σ makes a false
// failure a 6e-5 event per check.
func within4Sigma(k, n int, p float64) (bool, float64) {
	mean := float64(n) * p
	sd := math.Sqrt(float64(n) * p * (1 - p))
	return math.Abs(float64(k)-mean) <= 4*sd, (float64(k) - mean) / sd
}

func TestLossMatchesPtotPerSlotAndWindow(t *testing.T) {
	const slot = 15 * time.Second
	s := Slots{First: -5 * time.Second, Length: slot, Window: DefaultWindow, Slots: []Slot{
		{Legs: Legs{Cap: 0.01, At: 0.005, Ho: 0.3, Gw: 0.002}},                                               // the run starts 5 s into it
		{Legs: Legs{Cap: 0.01, At: 0.005, Ho: 0.3, Gw: 0.002, ISL: []float64{0.004, 0.004}}, Handover: true}, // 2 ISLs, a new satellite
		{Legs: Legs{Cap: 0.01, At: 0.005, Ho: 0.3, Gw: 0.002, ISL: []float64{0.004}}},                        // same satellite, 1 ISL
		{Outage: true},
		{Legs: Legs{Cap: 0.02, Ho: 0.1, ISL: make([]float64, 5)}, Handover: true},
	}}
	const n = 200_000
	for _, seed := range []uint64{1, 2, 3} {
		c := &counter{}
		l, err := NewLoss(s, sim.Stream(seed, "link/forward/ptot"), c.fn)
		if err != nil {
			t.Fatal(err)
		}
		for k := range s.Slots {
			start := max(0, s.First+time.Duration(k)*slot)
			ho := s.First + time.Duration(k)*slot + s.Window
			in, out := s.Slots[k].probabilities()
			if s.Slots[k].Outage {
				in, out = 1, 1
			}
			if s.Slots[k].Handover {
				if got := offer(l, c, start, ho, n); !ok(t, seed, k, "in the handover window", got, n, in) {
					continue
				}
				start = ho
			}
			ok(t, seed, k, "outside the handover window", offer(l, c, start, s.First+time.Duration(k+1)*slot, n), n, out)
		}
		if c.counts[link.DropOutage] != n {
			t.Errorf("seed %d: %d outage drops, want the outage slot's %d", seed, c.counts[link.DropOutage], n)
		}
	}
}

func ok(t *testing.T, seed uint64, k int, where string, got, n int, p float64) bool {
	t.Helper()
	if p == 1 {
		if got != n {
			t.Errorf("seed %d slot %d %s: %d of %d dropped, want all", seed, k, where, got, n)
			return false
		}
		return true
	}
	in, z := within4Sigma(got, n, p)
	if !in {
		t.Errorf("seed %d slot %d %s: %d of %d dropped (%.5f), p_tot %.5f: %.1f σ off", seed, k, where, got, n, float64(got)/float64(n), p, z)
	}
	return in
}

// The rates of the test differ enough that a window applied in the wrong
// place is caught: inside 1 − .7·S = 0.317338, outside 1 − S = 0.024769 with S = .99·.995·.998·.996² (slot 1).
func TestLossWindowRatesDiffer(t *testing.T) {
	sl := Slot{Legs: Legs{Cap: 0.01, At: 0.005, Ho: 0.3, Gw: 0.002, ISL: []float64{0.004, 0.004}}, Handover: true}
	in, out := sl.probabilities()
	if math.Abs(in-0.317338) > 1e-6 || math.Abs(out-0.024769) > 1e-6 {
		t.Errorf("in %.6f out %.7f", in, out)
	}
}

func TestLossPassesSurvivorsAtOnce(t *testing.T) {
	c := &counter{}
	l, err := NewLoss(Slots{Length: time.Second, Slots: []Slot{{}}}, sim.Stream(1, "x"), c.fn)
	if err != nil {
		t.Fatal(err)
	}
	p := c.pool.Get()
	l.Enqueue(3*time.Millisecond, p)
	if l.NextEvent() != 3*time.Millisecond || l.Dequeue(3*time.Millisecond) != p || l.NextEvent() != link.Never {
		t.Error("a survivor is not released at its arrival")
	}
}

func TestNewLossRefuses(t *testing.T) {
	c := &counter{}
	if _, err := NewLoss(Slots{}, sim.Stream(1, "x"), c.fn); err == nil {
		t.Error("no slots accepted")
	}
	if _, err := NewLoss(Slots{Length: time.Second, Slots: []Slot{{Legs: Legs{ISL: []float64{1}}}}}, sim.Stream(1, "x"), c.fn); err == nil {
		t.Error("p_isl 1 accepted")
	}
}

func BenchmarkLoss(b *testing.B) {
	s := Slots{First: 0, Length: 15 * time.Second, Window: DefaultWindow, Slots: make([]Slot, 40)}
	for k := range s.Slots {
		s.Slots[k] = Slot{Legs: Legs{Cap: 0.001, At: 0.001, Ho: 0.2, Gw: 0.001, ISL: make([]float64, k%4)}, Handover: k%3 == 0}
	}
	c := &counter{}
	l, err := NewLoss(s, sim.Stream(1, "bench"), c.fn)
	if err != nil {
		b.Fatal(err)
	}
	p := c.pool.Get()
	step := 600 * time.Second / time.Duration(max(b.N, 1))
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		now := time.Duration(i) * step
		l.Enqueue(now, p)
		if q := l.Dequeue(now); q != nil {
			p = q
		} else {
			p = c.pool.Get()
		}
	}
}

// Times out of order (a live engine's late poll) still find their slot;
// times before the first slot or after the last take those slots.
func TestLossSeeksBackAndClamps(t *testing.T) {
	c := &counter{}
	s := Slots{First: 0, Length: time.Second, Slots: []Slot{{}, {Outage: true}, {}}}
	l, err := NewLoss(s, sim.Stream(1, "x"), c.fn)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		at      time.Duration
		dropped bool
	}{{1500 * time.Millisecond, true}, {500 * time.Millisecond, false}, {time.Second, true}, {-time.Second, false}, {time.Hour, false}, {1999 * time.Millisecond, true}} {
		before := c.counts[link.DropOutage]
		l.Enqueue(tc.at, c.pool.Get())
		for p := l.Dequeue(tc.at); p != nil; p = l.Dequeue(tc.at) {
			c.pool.Put(p)
		}
		if got := c.counts[link.DropOutage] > before; got != tc.dropped {
			t.Errorf("at %v: dropped %v, want %v", tc.at, got, tc.dropped)
		}
	}
}
