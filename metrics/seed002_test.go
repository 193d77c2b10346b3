package metrics

import (
	"math"
	"testing"
)

func TestGoodputRatio(t *testing.T) {
	for _, tc := range []struct{ a, b, want float64 }{
		{50, 50, 1}, {20, 80, 0.25}, {80, 20, 0.25}, {0, 10, 0}, {0, 0, 1},
	} {
		if got := GoodputRatio(tc.a, tc.b); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("GoodputRatio(%g, %g) = %g, want %g", tc.a, tc.b, got, tc.want)
		}
	}
	if got := LongOverShort(30, 60); got != 0.5 {
		t.Errorf("LongOverShort(30, 60) = %g", got)
	}
	if !math.IsInf(LongOverShort(1, 0), 1) || LongOverShort(0, 0) != 1 {
		t.Error("LongOverShort edge cases")
	}
}

func TestNormalisedGoodputAndInflation(t *testing.T) {
	if got := NormalisedGoodput([]float64{30, 45, 20}, 100); math.Abs(got-0.95) > 1e-12 {
		t.Errorf("NormalisedGoodput = %g, want 0.95", got)
	}
	if !math.IsNaN(NormalisedGoodput([]float64{1}, 0)) || !math.IsNaN(DelayInflation(10, 0)) {
		t.Error("want NaN without a capacity or base RTT")
	}
	if got := DelayInflation(75, 50); got != 1.5 {
		t.Errorf("DelayInflation(75, 50) = %g", got)
	}
}

func TestCDF(t *testing.T) {
	got := CDF([]float64{3, 1, 2, 2, math.NaN()})
	want := []CDFPoint{{1, 0.25}, {2, 0.75}, {3, 1}}
	if len(got) != len(want) {
		t.Fatalf("CDF = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("CDF[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if CDF(nil) != nil {
		t.Error("empty CDF")
	}
}

// The t-based interval against tabulated Student quantiles (t_{0.975,9} =
// 2.262, t_{0.975,1} = 12.706; e.g. NIST/SEMATECH e-Handbook, Table 1.3.6.7.2),
// and its coverage: over many samples of 10 normal draws, the interval
// holds the true mean ~95 % of the time (binomial SD over 2000 trials: 0.5 %).
func TestMeanCI(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	e := MeanCI(xs)
	sd := math.Sqrt(82.5 / 9)
	if e.N != 10 || e.Mean != 5.5 || math.Abs(e.SD-sd) > 1e-12 || math.Abs(e.CI-2.2622*sd/math.Sqrt(10)) > 1e-3 {
		t.Errorf("MeanCI = %+v, want mean 5.5, SD %.4f, CI %.4f", e, sd, 2.2622*sd/math.Sqrt(10))
	}
	if e := MeanCI([]float64{1, 3}); math.Abs(e.CI-12.706*math.Sqrt2/math.Sqrt2) > 1e-2 {
		t.Errorf("two samples: CI %g, want 12.706", e.CI)
	}
	if e := MeanCI([]float64{4}); e.Mean != 4 || !math.IsNaN(e.CI) {
		t.Errorf("one sample: %+v, want mean 4 and no error bar", e)
	}
	// Coverage, with a deterministic normal stream (Box–Muller on an LCG).
	state := uint64(12345)
	uni := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return (float64(state>>11) + 0.5) / (1 << 53)
	}
	const trials = 2000
	hit := 0
	for range trials {
		s := make([]float64, 10)
		for i := range s {
			s[i] = 3 + 2*math.Sqrt(-2*math.Log(uni()))*math.Cos(2*math.Pi*uni())
		}
		if e := MeanCI(s); e.Lo() <= 3 && 3 <= e.Hi() {
			hit++
		}
	}
	if cov := float64(hit) / trials; math.Abs(cov-ConfidenceLevel) > 0.015 {
		t.Errorf("coverage %.3f, want 0.95 ± 0.015 (3 binomial SDs)", cov)
	}
}
