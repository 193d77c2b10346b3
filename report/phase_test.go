package report

import (
	"math"
	"strings"
	"testing"
)

// twoFlows is a staggered pair: flow 2 joins at 30 s and the two converge
// towards an equal share of a 300 Mbit/s path.
func twoFlows() PhasePlane {
	var pp PhasePlane
	pp.Name1, pp.Name2 = "bbr3 (first)", "bbr3 (joins at 30 s)"
	for i := range 120 {
		t := float64(i + 1)
		x2 := 0.0
		if t > 30 {
			x2 = 150 * (1 - math.Exp(-(t-30)/10))
		}
		pp.T = append(pp.T, t)
		pp.X1 = append(pp.X1, 300-x2+5*math.Sin(t))
		pp.X2 = append(pp.X2, x2)
	}
	return pp
}

func TestPhasePlot(t *testing.T) {
	pp := twoFlows()
	f, err := PhasePlot("Two BBRv3 flows, staggered", pp)
	if err != nil {
		t.Fatal(err)
	}
	// Without a given capacity the efficiency line sits at the p95 of the
	// aggregate; the aggregate is 300 + 5 sin t, so its p95 lies in
	// [300 + 5 sin(72°) ≈ 304.6, 305].
	c := aggregateQuantile(pp.X1, pp.X2, capacityQuantile)
	if c < 304 || c > 305 {
		t.Errorf("p95 aggregate = %.2f, want within [304, 305]", c)
	}
	renderBoth(t, f, "throughput of bbr3 (first) (Mbit/s)", "fairness x1 = x2", "efficiency x1 + x2 = C")
	// Square axes from 0 covering the data and the efficiency line.
	p := f.Plot()
	if p.X.Min != 0 || p.Y.Min != 0 || p.X.Max != p.Y.Max || p.X.Max < c {
		t.Errorf("axes x [%v, %v], y [%v, %v]: want equal ranges from 0 above %v", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max, c)
	}
	hasC := false
	for _, n := range f.legendNames {
		hasC = hasC || strings.Contains(n, "p95 of x1 + x2")
	}
	if !hasC {
		t.Errorf("legend %v does not say how C was obtained", f.legendNames)
	}
}

func TestPhasePlotGivenCapacity(t *testing.T) {
	pp := twoFlows()
	pp.CapacityMbps = 400
	f, err := PhasePlot("given capacity", pp)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Plot().X.Max, 400*phaseMargin; math.Abs(got-want) > 1e-9 {
		t.Errorf("x max = %v, want %v (capacity × margin)", got, want)
	}
	if !strings.Contains(strings.Join(f.legendNames, "|"), "C = 400.0 Mbit/s (given)") {
		t.Errorf("legend %v lacks the given capacity", f.legendNames)
	}
}

func TestAggregateQuantile(t *testing.T) {
	x1 := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	x2 := make([]float64, 10)
	for _, tc := range []struct{ q, want float64 }{{0.95, 10}, {0.5, 5}, {0.1, 1}, {0, 1}} {
		if got := aggregateQuantile(x1, x2, tc.q); got != tc.want {
			t.Errorf("q=%v: %v, want %v (nearest rank)", tc.q, got, tc.want)
		}
	}
}

func TestPhasePlotRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		pp   PhasePlane
		want string
	}{
		{"empty", PhasePlane{}, "no points"},
		{"lengths", PhasePlane{T: []float64{1}, X1: []float64{1}, X2: []float64{1, 2}}, "equal lengths"},
		{"negative", PhasePlane{T: []float64{1}, X1: []float64{-1}, X2: []float64{1}}, "x1[0]"},
		{"nan", PhasePlane{T: []float64{1}, X1: []float64{1}, X2: []float64{math.NaN()}}, "x2[0]"},
	} {
		if _, err := PhasePlot("p", tc.pp); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}
