package metrics

import (
	"math"
	"strings"
	"testing"
	"time"
)

// pathTrace: 1 s intervals at rate x(t) bytes/s and a fixed 40 ms RTT, with
// retransmits in the listed seconds.
func pathTrace(n int, rate func(i int) float64, loss map[int]int64) []FluidSample {
	s := make([]FluidSample, n)
	for i := range s {
		s[i] = FluidSample{T: time.Duration(i+1) * time.Second, Dur: time.Second,
			Bytes: int64(rate(i)), RTT: 40 * time.Millisecond, Retransmits: loss[i]}
	}
	return s
}

// TestFluidSteady: a stable 25 MB/s, 40 ms path (BDP 1 MB) without loss:
// inflight_hi stays unset and the model cycles between cruise at BDP̄ and
// ProbeBW_UP at 5/4·BDP̄, so its mean lies in [1, 1.25]·BDP̄.
func TestFluidSteady(t *testing.T) {
	pts, err := FluidModel(pathTrace(60, func(int) float64 { return 25e6 }, nil), 200*time.Millisecond, 1448)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pts[5:] {
		if math.Abs(p.BDP-1e6) > 1 || !math.IsInf(p.BDPHi, 1) || p.Model < 1e6*0.999 || p.Model > 1.25e6 {
			t.Fatalf("t=%v: %+v", p.T, p)
		}
	}
}

// TestFluidLossStep: at t = 20 s the path drops to 17.5 MB/s with a 5% loss
// burst; BDP_hi is set from the inflight at the loss and the model settles
// in the headroom band [(1−β)·BDP_hi, BDP_hi] (seed 000 Fig. 11).
func TestFluidLossStep(t *testing.T) {
	rate := func(i int) float64 { return map[bool]float64{true: 25e6, false: 17.5e6}[i < 20] }
	// 605 segments of 1448 B = 5% of 17.5 MB.
	s := pathTrace(40, rate, map[int]int64{20: 605})
	pts, err := FluidModel(s, 200*time.Millisecond, 1448)
	if err != nil {
		t.Fatal(err)
	}
	if hi := pts[20].BDPHi; math.Abs(hi-0.7e6) > 1 || pts[20].DownFrac < 0.5 {
		t.Fatalf("loss interval: %+v", pts[20])
	}
	for _, p := range pts[23:] {
		if p.Model < (1-fluidHeadroom)*p.BDPHi*0.98 || p.Model > p.BDPHi*1.001 {
			t.Errorf("t=%v: model %.0f outside [%.0f, %.0f]", p.T, p.Model, (1-fluidHeadroom)*p.BDPHi, p.BDPHi)
		}
	}
}

// TestFitFluidRecoversTau: a trace whose measured inflight is the model's
// own output for tau = 400 ms is fitted back to 400 ms with ~0 error.
func TestFitFluidRecoversTau(t *testing.T) {
	rate := func(i int) float64 { return 20e6 + 10e6*float64((i/7)%2) }
	s := pathTrace(60, rate, nil)
	truth, err := FluidModel(s, 400*time.Millisecond, 1448)
	if err != nil {
		t.Fatal(err)
	}
	s[0].Inflight = truth[0].Actual
	for i := 1; i < len(s); i++ {
		s[i].Inflight = truth[i].Model
	}
	taus := []time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond,
		400 * time.Millisecond, 800 * time.Millisecond, 1600 * time.Millisecond}
	fit, err := FitFluid(s, 1448, taus)
	if err != nil {
		t.Fatal(err)
	}
	if fit.Tau != 400*time.Millisecond || fit.NRMSE > 0.01 {
		t.Errorf("fit tau %v, nrmse %.4f", fit.Tau, fit.NRMSE)
	}
}

// TestFitFluidSydney fits the model to the real Sydney BBRv3 downlink trace
// (seed 000 Fig. 11 uses the same capture) and reports the fit.
func TestFitFluidSydney(t *testing.T) {
	r, ok := traceFlows(t)["downlink_Sydney_bbr_run1.csv"]
	if !ok {
		t.Skip("Sydney bbr downlink trace not present")
	}
	s := FluidSamples(Series(r.Flows()[0]))
	taus := []time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond,
		400 * time.Millisecond, 800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond}
	fit, err := FitFluid(s, 1448, taus)
	if err != nil {
		t.Fatal(err)
	}
	var act, mod float64
	for _, p := range fit.Points {
		act += p.Actual
		mod += p.Model
	}
	t.Logf("tau %v, rmse %.0f B, nrmse %.3f, corr %.3f, mean actual %.0f B, mean model %.0f B",
		fit.Tau, fit.RMSE, fit.NRMSE, fit.Corr, act/300, mod/300)
	// v_actual = x·RTT includes the queue; the model's band is
	// [(1−β)·BDP_hi, 5/4·BDP̄], so its mean must lie within 25% of the
	// measured mean, and it must track it (positive correlation).
	if math.Abs(mod/act-1) > 0.25 || fit.Corr <= 0 {
		t.Errorf("model mean %.0f vs actual %.0f, corr %.3f", mod/300, act/300, fit.Corr)
	}
	if _, err := FluidModel(s, 0, 1448); err == nil || !strings.Contains(err.Error(), "tau") {
		t.Errorf("tau 0 accepted: %v", err)
	}
}

func BenchmarkFluidModel(b *testing.B) {
	s := pathTrace(300, func(i int) float64 { return 25e6 }, map[int]int64{100: 1000})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FluidModel(s, 200*time.Millisecond, 1448); err != nil {
			b.Fatal(err)
		}
	}
}
