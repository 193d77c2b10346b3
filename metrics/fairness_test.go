package metrics

import (
	"math"
	"testing"
)

// TestAllocation checks the indices against values computed by hand.
func TestAllocation(t *testing.T) {
	tests := []struct {
		name                     string
		t                        []float64
		jain, minMax, pf, alpha0 float64
		shares, maxMin           []float64
	}{
		// (3+1)²/(2·(9+1)) = 0.8; PF = (2·¾)(2·¼) = 0.75.
		{"N=2", []float64{3, 1}, 0.8, 1.0 / 3, 0.75, 4,
			[]float64{0.75, 0.25}, []float64{1, 1.0 / 3}},
		// Equal flows: every index is 1.
		{"N=2 equal", []float64{100, 100}, 1, 1, 1, 200, []float64{0.5, 0.5}, []float64{1, 1}},
		// T = 1..9: 45²/(9·285) = 2025/2565; PF = Π(9·i/45) = 9!/5⁹.
		{"N=9", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 2025.0 / 2565, 1.0 / 9, 362880.0 / 1953125, 45,
			[]float64{1.0 / 45, 2.0 / 45, 3.0 / 45, 4.0 / 45, 5.0 / 45, 6.0 / 45, 7.0 / 45, 8.0 / 45, 9.0 / 45},
			[]float64{1.0 / 9, 2.0 / 9, 3.0 / 9, 4.0 / 9, 5.0 / 9, 6.0 / 9, 7.0 / 9, 8.0 / 9, 1}},
		// A starved flow: (2+2)²/(3·8) = 2/3; PF and max–min are 0.
		{"zero flow", []float64{2, 2, 0}, 2.0 / 3, 0, 0, 4, []float64{0.5, 0.5, 0}, []float64{1, 1, 0}},
		// All idle: the equal (empty) allocation.
		{"all zero", []float64{0, 0}, 1, 1, 1, 0, []float64{0.5, 0.5}, []float64{1, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Allocation(tc.t)
			near(t, "jain", f.Jain, tc.jain)
			near(t, "minmax", f.MinMax, tc.minMax)
			near(t, "pf", f.PF, tc.pf)
			near(t, "alpha0", f.Alpha0, tc.alpha0)
			near(t, "fair share", f.FairShare, 1/float64(len(tc.t)))
			for i := range tc.t {
				near(t, "share", f.Shares[i], tc.shares[i])
				near(t, "maxmin", f.MaxMin[i], tc.maxMin[i])
				near(t, "share gain", f.ShareGain[i], tc.shares[i]*float64(len(tc.t)))
			}
		})
	}
	if f := Allocation([]float64{2, 2, 0}); !math.IsInf(f.PFTerm[2], -1) || f.PFTerm[0] != math.Log(1.5) {
		t.Errorf("pf terms %v", f.PFTerm)
	}
	if f := Allocation(nil); f.N != 0 || f.Jain != 0 {
		t.Errorf("empty: %+v", f)
	}
}

// TestAllocationTwoFlowIdentities: for shares ½±d, Jain = 1/(1+4d²) and
// PF = 1−4d² (the relation behind seed 000's 0.949/0.946 pair).
func TestAllocationTwoFlowIdentities(t *testing.T) {
	for _, d := range []float64{0, 0.05, 0.1157, 0.3, 0.5} {
		f := Allocation([]float64{0.5 + d, 0.5 - d})
		near(t, "jain", f.Jain, 1/(1+4*d*d))
		near(t, "pf", f.PF, 1-4*d*d)
	}
	// Jain 0.949 ⇒ 4d² = 1/0.949 − 1 ⇒ PF = 0.946 (seed 000 §two-flow).
	e := 1/0.949 - 1
	d := math.Sqrt(e) / 2
	if got := Allocation([]float64{0.5 + d, 0.5 - d}).PF; math.Abs(got-0.946) > 0.0005 {
		t.Errorf("PF at Jain 0.949 = %.4f, seed 000 reports 0.946", got)
	}
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %.15g, want %.15g", what, got, want)
	}
}

func BenchmarkAllocation(b *testing.B) {
	t := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}
	b.ReportAllocs()
	for b.Loop() {
		Allocation(t)
	}
}
