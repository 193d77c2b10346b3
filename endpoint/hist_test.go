package endpoint

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"
)

func TestHistQuantilesMatchSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	h := NewHist(50 * time.Millisecond)
	var xs []time.Duration
	for i := 0; i < 20000; i++ {
		// 20 ms ± exponential jitter, a few values beyond the linear span.
		d := 20*time.Millisecond + time.Duration(rng.ExpFloat64()*float64(300*time.Microsecond))
		if i%1000 == 0 {
			d = time.Duration(60+i/1000) * time.Millisecond
		}
		h.Add(d)
		xs = append(xs, d)
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	for _, q := range []float64{0, 0.5, 0.9, 0.99, 0.999, 1} {
		i := max(0, int(float64(len(xs))*q+0.999999)-1)
		want := xs[i]
		got := h.Quantile(q)
		// Below the span, bins are 1 µs wide (error ≤ 0.5 µs + rounding);
		// above it, 1% wide.
		tol := time.Microsecond
		if want >= 50*time.Millisecond {
			tol = want / 100
		}
		if d := got - want; d > tol || d < -tol {
			t.Errorf("q=%g: got %v, want %v ± %v", q, got, want, tol)
		}
	}
	if h.Count() != 20000 || h.Min() != xs[0] || h.Max() != xs[len(xs)-1] {
		t.Errorf("count/min/max = %d %v %v, want 20000 %v %v", h.Count(), h.Min(), h.Max(), xs[0], xs[len(xs)-1])
	}
	var sum time.Duration
	for _, x := range xs {
		sum += x
	}
	if m, want := h.Mean(), sum/time.Duration(len(xs)); m-want > time.Microsecond || want-m > time.Microsecond {
		t.Errorf("mean %v, want %v", m, want)
	}
}

func TestHistEmptyAndNegative(t *testing.T) {
	h := NewHist(0)
	if h.Quantile(0.5) != 0 || h.Mean() != 0 {
		t.Fatalf("empty histogram not zero")
	}
	h.Add(-time.Second)
	if h.Quantile(0.5) != 0 || h.Min() != 0 {
		t.Fatalf("negative value not clamped to 0: %v", h.Quantile(0.5))
	}
}

func BenchmarkHistAdd(b *testing.B) {
	h := NewHist(0)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h.Add(time.Duration(i%300000) * time.Microsecond)
	}
}
