package metrics

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/sim"
)

// simulateMM1 runs an M/M/1 FIFO queue (service rate mu packets/s of
// DefaultMSS bytes, utilisation rho) for d, sampled every dt: bytes departed
// in the interval and an RTT of base plus the unfinished work at the
// sample instant (the wait a probe arriving then would see). Work > 0
// exactly when the server is busy, so X̄ estimates P(busy) = ρ.
func simulateMM1(seed uint64, mu, rho float64, d, dt time.Duration) []QueueSample {
	const base = 20 * time.Millisecond
	rng := sim.Stream(seed, "mm1")
	n := int(d / dt)
	bytes := make([]int64, n)
	rtt := make([]time.Duration, n)
	lambda := rho * mu
	var a, dep float64 // arrival and departure of the last customer, s
	k := 0
	for k < n {
		a += rng.ExpFloat64() / lambda
		for k < n && float64(k+1)*dt.Seconds() <= a {
			tk := float64(k+1) * dt.Seconds()
			rtt[k] = base + time.Duration(math.Max(0, dep-tk)*1e9)
			k++
		}
		dep = math.Max(a, dep) + rng.ExpFloat64()/mu
		if i := int(dep / dt.Seconds()); i < n {
			bytes[i] += DefaultMSS
		}
	}
	out := make([]QueueSample, n)
	for i := range out {
		out[i] = QueueSample{T: time.Duration(i+1) * dt, Dur: dt, Bytes: bytes[i], RTT: rtt[i]}
	}
	return out
}

// TestEstimateQueueMM1: on a simulated M/M/1 the estimator's mean queue
// matches the analytic L_q = ρ²/(1−ρ) within 10% (with c_s² = 1 the P-K
// formula is exact for M/M/1; the residual is the sampling error of X̄
// over 15 s windows, largest at ρ = 0.9 where dQ/Q ≈ 12·dρ).
func TestEstimateQueueMM1(t *testing.T) {
	const mu = 20000.0 // packets/s: 240 Mbit/s of 1500 B, a Starlink downlink rate
	for i, rho := range []float64{0.5, 0.8, 0.9} {
		samples := simulateMM1(uint64(i+1), mu, rho, 300*time.Second, time.Millisecond)
		est, err := EstimateQueue(samples, QueueOptions{Step: DefaultQueueWindow, BusyThreshold: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(est) != 20 {
			t.Fatalf("rho %g: %d windows, want 20", rho, len(est))
		}
		var q, busy float64
		for _, e := range est {
			q += e.Q
			busy += e.Busy
		}
		q /= float64(len(est))
		busy /= float64(len(est))
		want := rho * rho / (1 - rho)
		t.Logf("rho %.1f: X̄ %.4f, Q %.3f packets, analytic %.3f (%+.1f%%)", rho, busy, q, want, 100*(q/want-1))
		if math.Abs(q/want-1) > 0.10 {
			t.Errorf("rho %g: Q = %.3f, analytic %.3f", rho, q, want)
		}
	}
}

// TestEstimateQueueSaturation: against the window's own minimum one sample
// is never queued, so X̄ = 14/15 and Q = X̄²(1+c_s²)/(2(1−X̄)) stays below
// the cap; the cap itself is exercised with RhoMax 0.5 (and, at ρ_max =
// 0.995, by TestEstimateQueueBaseRTT: Q = (1+c_s²)/(2(1−ρ_max)), 200
// packets with c_s² = 1, 100 with c_s² = 0, seed 000 Fig. 13's ≈ 100).
func TestEstimateQueueSaturation(t *testing.T) {
	var s []QueueSample
	for i := range 15 {
		s = append(s, QueueSample{T: time.Duration(i+1) * time.Second, Dur: time.Second,
			Bytes: 25_000_000, RTT: time.Duration(30+5*i) * time.Millisecond})
	}
	// The window's minimum sample itself is unqueued: X̄ = 14/15.
	for _, c := range []struct {
		opt  QueueOptions
		busy float64
		q    float64
	}{
		{QueueOptions{}, 14.0 / 15, sq(14.0/15) * 2 / (2 * (1 - 14.0/15))},
		{QueueOptions{NoCs2: true}, 14.0 / 15, sq(14.0/15) / (2 * (1 - 14.0/15))},
	} {
		est, err := EstimateQueue(s, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		e := est[len(est)-1]
		// μ = 200 Mbit/s / (8·1500 B) = 16 667 packets/s.
		if math.Abs(e.Mu-200e6/12000) > 1e-6 || math.Abs(e.Busy-c.busy) > 1e-12 || math.Abs(e.Q-c.q) > 1e-9 {
			t.Errorf("%+v: mu %g busy %g Q %g, want busy %g Q %g", c.opt, e.Mu, e.Busy, e.Q, c.busy, c.q)
		}
	}
	for i := range s {
		s[i].RTT = time.Duration(30+5*i)*time.Millisecond + time.Duration(i%2)*time.Hour
	}
	s[0].RTT = 10 * time.Millisecond // every other sample queued over the base
	est, _ := EstimateQueue(s, QueueOptions{RhoMax: 0.5})
	if e := est[len(est)-1]; e.Rho != 0.5 || math.Abs(e.Q-e.Lambda*e.Wq.Seconds()) > 1e-6 {
		t.Errorf("cap: %+v", e)
	}
	for _, c := range []struct{ rho, q float64 }{{0.995, 198.005}, {0.995, 99.0025}} {
		opt := QueueOptions{NoCs2: c.q < 100}.withDefaults()
		if got := c.rho * c.rho * (1 + opt.Cs2) / (2 * (1 - c.rho)); math.Abs(got-c.q) > 1e-3 {
			t.Errorf("saturation Q %g, want %g", got, c.q)
		}
	}
}

func TestEstimateQueueOptions(t *testing.T) {
	if _, err := EstimateQueue(nil, QueueOptions{RhoMax: 1.5, MSS: -1}); err == nil {
		t.Error("bad options accepted")
	}
}

func sq(x float64) float64 { return x * x }

func BenchmarkEstimateQueue(b *testing.B) {
	s := simulateMM1(1, 20000, 0.8, 300*time.Second, time.Second)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EstimateQueue(s, QueueOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// With a fixed BaseRTT below every sample each window is busy throughout:
// ρ reaches ρ_max and Q the ceiling (1+c_s²)/(2(1−ρ_max)) (λ = μ stays
// uncapped: 100 packets for c_s² = 0, seed 000's Fig. 13); against the
// window's own minimum the same trace has one idle sample per window.
func TestEstimateQueueBaseRTT(t *testing.T) {
	var s []QueueSample
	for i := range 30 {
		s = append(s, QueueSample{T: time.Duration(i+1) * time.Second, Dur: time.Second, Bytes: 30e6,
			RTT: 40*time.Millisecond + time.Duration(i%5)*5*time.Millisecond})
	}
	fixed, err := EstimateQueue(s, QueueOptions{BaseRTT: 30 * time.Millisecond, NoCs2: true})
	if err != nil {
		t.Fatal(err)
	}
	own, _ := EstimateQueue(s, QueueOptions{NoCs2: true})
	ceiling := 1 / (2 * (1 - DefaultRhoMax))
	for i := range fixed {
		if fixed[i].Rho != DefaultRhoMax || math.Abs(fixed[i].Q-ceiling) > 1e-9 {
			t.Fatalf("window %d with a fixed base: ρ %v Q %v, want %v and %v", i, fixed[i].Rho, fixed[i].Q, DefaultRhoMax, ceiling)
		}
		if own[i].Rho >= DefaultRhoMax {
			t.Fatalf("window %d against its own minimum: ρ %v, want below ρ_max", i, own[i].Rho)
		}
	}
	if _, err := EstimateQueue(s, QueueOptions{BaseRTT: -time.Second}); err == nil {
		t.Fatal("a negative base RTT gave no error")
	}
}
