package probe

import (
	"math"
	"testing"
	"time"
)

// InferIsolation: a mouse with a frame of queueing and no loss beside an
// elephant with 40 ms and 20 % loss is isolated in delay and loss; the
// same mouse sharing the elephant's queue is not.
func TestInferIsolation(t *testing.T) {
	floor := 13 * time.Millisecond
	mk := func(n int, q time.Duration, lossEvery int) *Trace {
		tr := &Trace{}
		for i := range n {
			tr.Samples = append(tr.Samples, Sample{Sent: time.Duration(i) * time.Millisecond, OWD: floor + q, Lost: lossEvery > 0 && i%lossEvery == 0})
		}
		return tr
	}
	iso := InferIsolation(mk(1000, time.Millisecond, 0), mk(1000, 40*time.Millisecond, 5), floor, 0, time.Hour)
	if !iso.DelayIsolated || iso.LossCoupled || math.Abs(iso.DelayRatio-0.025) > 1e-9 || iso.Elephant.LossRate != 0.2 {
		t.Errorf("%+v: want delay isolated (ratio 0.025), loss not coupled, elephant loss 0.2", iso)
	}
	shared := InferIsolation(mk(1000, 40*time.Millisecond, 5), mk(1000, 40*time.Millisecond, 5), floor, 0, time.Hour)
	if shared.DelayIsolated || !shared.LossCoupled {
		t.Errorf("%+v: want shared delay and coupled loss", shared)
	}
}
