package starlink

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
	"github.com/leolab/leolab/sim"
)

// The terrestrial leg delays every packet by its one-way delay and, in the
// server → PoP direction only, loses packets i.i.d. at the city's rate:
// the count of n packets is within 4σ of the binomial mean.
func TestTerrestrialLossAndDelay(t *testing.T) {
	const n, p = 200000, 0.002
	prof := mustProfile(t, "sydney", map[string]any{"terrestrial.downlink_loss": p})
	for _, down := range []bool{true, false} {
		var pool packet.Pool
		lost := 0
		drop := func(_ time.Duration, q *packet.Packet, c link.DropCause) {
			if c != link.DropRandom {
				t.Fatalf("drop cause %v, want random", c)
			}
			lost++
			pool.Put(q)
		}
		s, err := NewTerrestrial(prof, down, sim.Stream(1, "terrestrial/downlink"), drop)
		if err != nil {
			t.Fatal(err)
		}
		delivered := 0
		// Packet i is sent at i µs; release everything due up to until.
		release := func(until time.Duration) {
			for at := s.NextEvent(); at != link.Never && at <= until; at = s.NextEvent() {
				for r := s.Dequeue(at); r != nil; r = s.Dequeue(at) {
					if d := at - time.Duration(r.Seq)*time.Microsecond; d != prof.Terrestrial.OneWay {
						t.Fatalf("packet %d crossed the leg in %v, want %v", r.Seq, d, prof.Terrestrial.OneWay)
					}
					delivered++
					pool.Put(r)
				}
			}
		}
		for i := range n {
			now := time.Duration(i) * time.Microsecond
			q := pool.Get()
			q.Seq, q.Size = uint64(i), 1500
			s.Enqueue(now, q)
			release(now)
		}
		release(time.Hour)
		if lost+delivered != n {
			t.Fatalf("down=%v: %d lost + %d delivered != %d sent", down, lost, delivered, n)
		}
		if !down {
			if lost != 0 {
				t.Fatalf("PoP → server leg lost %d packets, want none", lost)
			}
			continue
		}
		sd := math.Sqrt(n * p * (1 - p))
		if math.Abs(float64(lost)-n*p) > 4*sd {
			t.Fatalf("server → PoP leg lost %d of %d, want %.0f ± %.0f (4σ)", lost, n, n*p, 4*sd)
		}
	}
}
