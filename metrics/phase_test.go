package metrics

import (
	"math"
	"testing"

	"github.com/leolab/leolab/result"
)

func flowOf(startS float64, ts []float64, mbps []float64) result.Flow {
	f := result.Flow{StartS: startS}
	for i, x := range mbps {
		f.Intervals = append(f.Intervals, result.Interval{T: ts[i], Bytes: int64(x * 1e6 / 8)})
	}
	return f
}

// TestPhasePlane: two flows over three 1 s intervals with iperf3-like jitter
// in the interval ends; hand-computed indices per point.
func TestPhasePlane(t *testing.T) {
	a := flowOf(0, []float64{1, 2, 3, 4}, []float64{100, 150, 0, 60})
	b := flowOf(0.0004, []float64{1.0007, 2.0003, 3.0002, 4.6}, []float64{100, 50, 0, 20})
	pts, sum := PhasePlane(a, b)
	// Point 3 (both zero) is left out; point 4 is 0.6 s off (> half an interval).
	if len(pts) != 2 || sum.Points != 2 {
		t.Fatalf("%d points: %+v", len(pts), pts)
	}
	// (150, 50): Jain 200²/(2·25000) = 0.8, PF 4·¾·¼ = 0.75, min/max 1/3, ratio 3.
	p := pts[1]
	if math.Abs(p.X1-150e6) > 1 || math.Abs(p.X2/50e6-1/0.9996) > 1e-6 {
		t.Errorf("rates %g %g", p.X1, p.X2)
	}
	a2 := Allocation([]float64{p.X1, p.X2})
	near(t, "jain", p.Jain, a2.Jain)
	if math.Abs(p.Jain-0.8) > 1e-3 || math.Abs(p.PF-0.75) > 1e-3 || math.Abs(p.MinMax-1.0/3) > 1e-3 || math.Abs(p.Ratio-3) > 1e-2 {
		t.Errorf("point %+v", p)
	}
	// Means over (100,100) and (150,50): Jain (1+0.8)/2, ratio 125/75.
	if math.Abs(sum.Jain-0.9) > 1e-3 || math.Abs(sum.PF-0.875) > 1e-3 || math.Abs(sum.Ratio-125.0/75) > 1e-2 ||
		math.Abs(sum.Alpha0-200e6) > 1e5 {
		t.Errorf("summary %+v", sum)
	}
}
