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
	d, err := InferDecay(pts)
	if err != nil {
		t.Fatal(err)
	}
	if abs(d.Hold-175*time.Millisecond) > time.Millisecond || abs(d.Time-200*time.Millisecond) > time.Millisecond || d.High != 60 || d.Base != 30 {
		t.Errorf("%+v: want hold 175 ms, time 200 ms, 60 → 30 Mbit/s", d)
	}
	if _, err := InferDecay(pts[:3]); err == nil {
		t.Error("3 points accepted")
	}
	flat := []DecayPoint{{0, 50}, {1, 50}, {2, 50}, {3, 50}, {4, 50}}
	if _, err := InferDecay(flat); err == nil {
		t.Error("a flat allocation gave a decay")
	}
}
