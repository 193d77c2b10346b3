package metrics

import (
	"math"
	"testing"
)

func TestSpearman(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want float64
	}{
		{"monotone", []float64{1, 2, 3, 4, 5}, []float64{2, 4, 8, 16, 1000}, 1},
		{"reversed", []float64{1, 2, 3, 4}, []float64{9, 7, 5, 1}, -1},
		// No ties: 1 − 6Σd²/(n(n²−1)); d = (0,−2,1,1,0): 1 − 36/120 = 0.7.
		{"classic", []float64{1, 2, 3, 4, 5}, []float64{1, 4, 2, 3, 5}, 0.7},
		// Ties: x ranks (1.5,1.5,3,4), y ranks (1,2,3,4): Pearson of ranks
		// = 4.5/√(4.5·5) = 0.9487.
		{"ties", []float64{7, 7, 8, 9}, []float64{1, 2, 3, 4}, 4.5 / math.Sqrt(4.5*5)},
	}
	for _, tc := range tests {
		got, err := Spearman(tc.x, tc.y)
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %g, %v; want %g", tc.name, got, err, tc.want)
		}
	}
	for _, bad := range [][2][]float64{{{1}, {1}}, {{1, 2}, {1}}, {{3, 3, 3}, {1, 2, 3}}} {
		if _, err := Spearman(bad[0], bad[1]); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
