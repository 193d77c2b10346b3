package probe

import (
	"testing"
	"time"
)

// InferPoP: runs whose delay fits the access buffer (1500 packets at the
// delivered rate) show no upstream queue; those 40 ms above it do, and the
// threshold is the midpoint between the two.
func TestInferPoP(t *testing.T) {
	held := func(mbps float64) time.Duration {
		return time.Duration(1500 * 1500 * 8 / (mbps * 1e6) * float64(time.Second))
	}
	var runs []PoPRun
	for _, r := range []float64{400, 450, 500, 550, 600} {
		q := held(340) - 5*time.Millisecond
		if r > 500 {
			q += 40 * time.Millisecond
		}
		runs = append(runs, PoPRun{OfferedMbps: r, QueueDelay: q, DeliveredMbps: 340})
	}
	p, err := InferPoP(runs, 1500, 1500)
	if err != nil {
		t.Fatal(err)
	}
	if p.Threshold != 525 || p.Buffer < 1500 || p.Buffer > 1800 {
		t.Errorf("threshold %.0f, buffer %d: want 525 and 35 ms at 525 Mbit/s (1531)", p.Threshold, p.Buffer)
	}
	if _, err := InferPoP(runs[:1], 1500, 1500); err == nil {
		t.Error("one run accepted")
	}
}
