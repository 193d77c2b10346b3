package probe

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// A synthetic single-flow queue served at a fixed rate whose arrivals are
// dropped with probability k·q: InferAQMCurve counts the queue from the
// packets and recovers k.
func TestInferAQMCurveLinear(t *testing.T) {
	const (
		k       = 0.001 // per packet
		size    = 1500
		floor   = 10 * time.Millisecond
		send    = 100 * time.Microsecond // 120 Mbit/s offered
		service = 200 * time.Microsecond // 60 Mbit/s served
	)
	rng := rand.New(rand.NewPCG(1, 2))
	tr := &Trace{Size: size, Spacing: send}
	var queue []time.Duration // departure times of the queued packets
	var busy time.Duration
	for i := range 20000 {
		now := time.Duration(i) * send
		for len(queue) > 0 && queue[0] <= now {
			queue = queue[1:]
		}
		if rng.Float64() < k*float64(len(queue)) {
			tr.Samples = append(tr.Samples, Sample{Sent: now, Lost: true})
			continue
		}
		busy = max(busy, now) + service
		queue = append(queue, busy)
		tr.Samples = append(tr.Samples, Sample{Sent: now, OWD: busy - now + floor})
	}
	c := InferAQMCurve(tr, floor, 0, time.Hour, 25)
	if math.Abs(c.Slope-k)/k > 0.05 {
		t.Errorf("slope %.5f, want %.5f ± 5 %% (fit up to %d packets)", c.Slope, k, c.SlopeUntil)
	}
	if c.FirstDrop < 0 || c.FirstDrop > 100 || c.MaxQueue < 400 {
		t.Errorf("first drop at %d, max queue %d: want a drop below 100 and a queue past 400", c.FirstDrop, c.MaxQueue)
	}
}
