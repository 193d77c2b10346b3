package probe

import (
	"math"
	"testing"
	"time"
)

// InferDecay recovers a hold of 175 ms and a 200 ms linear fall from 60 to
// 30 Mbit/s sampled every 25 ms.
func TestInferDecay(t *testing.T) {
	var pts []DecayPoint
	for g := 0; g <= 500; g += 25 {
		x := float64(g-175) / 200
		v := 60 - 30*math.Min(1, math.Max(0, x))
		pts = append(pts, DecayPoint{Gap: time.Duration(g) * time.Millisecond, Mbps: v})
	}
	d, err := InferDecay(pts, 0)
	if err != nil {
		t.Fatal(err)
	}
	if abs(d.Hold-175*time.Millisecond) > time.Millisecond || abs(d.Time-200*time.Millisecond) > time.Millisecond || d.High != 60 || d.Base != 30 {
		t.Errorf("%+v: want hold 175 ms, time 200 ms, 60 → 30 Mbit/s", d)
	}
	// Without the points before the fall, the given level still places
	// the hold.
	late, err := InferDecay(pts[8:], 60)
	if err != nil {
		t.Fatal(err)
	}
	if abs(late.Hold-175*time.Millisecond) > time.Millisecond || abs(late.Time-200*time.Millisecond) > time.Millisecond {
		t.Errorf("from 200 ms on, with high 60: %+v, want hold 175 ms, time 200 ms", late)
	}
	if _, err := InferDecay(pts[:3], 0); err == nil {
		t.Error("3 points accepted")
	}
	flat := []DecayPoint{{0, 50}, {1, 50}, {2, 50}, {3, 50}, {4, 50}}
	if _, err := InferDecay(flat, 0); err == nil {
		t.Error("a flat allocation gave a decay")
	}
}
