package netsim

import (
	"math"
	"testing"
	"time"
)

func TestHistQuantiles(t *testing.T) {
	var h hist
	// 1..1000 ms uniformly: p95 = 950 ms, mean = 500.5 ms.
	for i := 1; i <= 1000; i++ {
		h.add(time.Duration(i) * time.Millisecond)
	}
	if h.min != time.Millisecond || h.max != time.Second {
		t.Fatalf("min %v max %v", h.min, h.max)
	}
	if got := h.mean(); math.Abs(float64(got-500500*time.Microsecond)) > float64(time.Microsecond) {
		t.Fatalf("mean %v, want 500.5ms", got)
	}
	p95 := h.quantile(0.95)
	if rel := math.Abs(float64(p95)/float64(950*time.Millisecond) - 1); rel > histGrowth-1 {
		t.Fatalf("p95 %v, want 950ms within %.0f%%", p95, (histGrowth-1)*100)
	}
}

func BenchmarkHistAdd(b *testing.B) {
	var h hist
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h.add(time.Duration(i%100000) * time.Microsecond)
	}
}
