package metrics

import (
	"fmt"
	"math"
	"slices"
)

// Spearman is Spearman's rank correlation ρ_s of x and y: the Pearson
// correlation of their ranks, ties given the mean of the ranks they span
// (Spearman 1904; the tie-corrected form, e.g. Kendall & Gibbons, Rank
// Correlation Methods, ch. 3). It needs two or more pairs; a constant input
// has no ranking and is an error.
func Spearman(x, y []float64) (float64, error) {
	if len(x) != len(y) {
		return 0, fmt.Errorf("spearman: %d x values, %d y values", len(x), len(y))
	}
	if len(x) < 2 {
		return 0, fmt.Errorf("spearman: %d pairs, need at least 2", len(x))
	}
	r, err := pearson(ranks(x), ranks(y))
	if err != nil {
		return 0, fmt.Errorf("spearman: %w", err)
	}
	return r, nil
}

// ranks returns 1-based ranks with ties averaged.
func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && x[idx[j+1]] == x[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}

func pearson(a, b []float64) (float64, error) {
	ma, mb := Mean(a), Mean(b)
	var sab, saa, sbb float64
	for i := range a {
		da, db := a[i]-ma, b[i]-mb
		sab += da * db
		saa += da * da
		sbb += db * db
	}
	if saa == 0 || sbb == 0 {
		return 0, fmt.Errorf("constant input has no ranking")
	}
	return sab / math.Sqrt(saa*sbb), nil
}
