package metrics

import (
	"math"
	"slices"
	"testing"
)

// Worked examples: numpy.percentile (linear, the default) of 1..10 gives
// Q1 3.25, median 5.5, Q3 7.75; IQR 4.5, so the fences are −3.5 and 14.5
// and 100 is the only outlier of 1..9,100 (its Q3 is 7.75 as well).
func TestBoxQuartilesAndWhiskers(t *testing.T) {
	for _, c := range []struct {
		name                  string
		xs                    []float64
		q1, med, q3, wlo, whi float64
		outliers              []float64
	}{
		{"1..10", []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 3.25, 5.5, 7.75, 1, 10, nil},
		{"outlier", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 100}, 3.25, 5.5, 7.75, 1, 9, []float64{100}},
		{"one", []float64{4}, 4, 4, 4, 4, 4, nil},
		{"nan ignored", []float64{math.NaN(), 2, 4}, 2.5, 3, 3.5, 2, 4, nil},
	} {
		b := Box(c.xs)
		got := []float64{b.Q1, b.Median, b.Q3, b.WhiskLo, b.WhiskHi}
		want := []float64{c.q1, c.med, c.q3, c.wlo, c.whi}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("%s: box %v, want %v", c.name, got, want)
				break
			}
		}
		if !slices.Equal(b.Outliers, c.outliers) {
			t.Errorf("%s: outliers %v, want %v", c.name, b.Outliers, c.outliers)
		}
	}
	if b := Box([]float64{math.NaN()}); b.N != 0 {
		t.Errorf("all NaN: N = %d, want 0", b.N)
	}
}

// On a large normal-like sample the whiskers end inside the Tukey fences
// and about 0.7 % of a normal lies beyond them (2·Φ(−2.698)).
func TestBoxWhiskersInsideFences(t *testing.T) {
	xs := make([]float64, 0, 20000)
	// A deterministic normal sample: inverse-CDF at evenly spaced points.
	for i := range 20000 {
		p := (float64(i) + 0.5) / 20000
		xs = append(xs, math.Sqrt2*math.Erfinv(2*p-1))
	}
	b := Box(xs)
	iqr := b.Q3 - b.Q1
	if math.Abs(iqr-1.349) > 0.002 {
		t.Errorf("IQR %.4f, want 1.349 (normal)", iqr)
	}
	if b.WhiskHi > b.Q3+WhiskerIQR*iqr || b.WhiskLo < b.Q1-WhiskerIQR*iqr {
		t.Errorf("whiskers %.3f..%.3f outside the fences", b.WhiskLo, b.WhiskHi)
	}
	if share := float64(len(b.Outliers)) / float64(b.N); math.Abs(share-0.00698) > 0.0005 {
		t.Errorf("outlier share %.5f, want 0.00698", share)
	}
}
