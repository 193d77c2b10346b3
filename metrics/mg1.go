package metrics

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Defaults of the M/G/1 queue estimate (seed 000, §queueing, Fig. 13).
const (
	// DefaultMSS is seed 000's m = 1500 bytes in μ = b / (8·m).
	DefaultMSS = 1500
	// DefaultQueueWindow is seed 000's sampling window w = 15 s (one
	// Starlink reconfiguration slot).
	DefaultQueueWindow = 15 * time.Second
	// DefaultRhoMax is seed 000's utilisation cap ρ_max = 0.995.
	DefaultRhoMax = 0.995
	// DefaultCs2 is seed 000's squared coefficient of variation of the
	// service time, c_s² = 1 ("assumed for exponential service times").
	// Note: with c_s² = 1 a window busy throughout (X̄ = 1, λ = μ, ρ capped
	// at 0.995) saturates Q at (1+c_s²)/(2(1−ρ)) = 200 packets, not the
	// ≈ 100 of seed 000 Fig. 13; 100 is what c_s² = 0 (M/D/1, fixed-size
	// packets) gives.
	DefaultCs2 = 1.0
	// DefaultBusyThreshold: a sample counts as "queue occupied" (X_j = 1)
	// when its RTT exceeds the window's minimum by more than one Starlink
	// TDMA frame, 1/750 s (seeds 000/001): smaller excursions are frame
	// scheduling, not queueing. Seed 000 does not state its test for q_j > 0.
	DefaultBusyThreshold = time.Second / 750
)

// QueueOptions parameterise EstimateQueue; zero fields take the defaults.
type QueueOptions struct {
	MSS           int           // bytes per packet, m
	Window        time.Duration // w
	Step          time.Duration // spacing of window ends; 0 = one window per sample
	RhoMax        float64
	Cs2           float64 // c_s²; set NoCs2 for 0
	NoCs2         bool    // use c_s² = 0 (M/D/1)
	BusyThreshold time.Duration
	// BaseRTT, when > 0, is the queue-occupied test's reference in place
	// of the window's minimum RTT: e.g. a trace's minimum, the seed's
	// RTT^rtp propagation estimate. With 1 s samples the window minimum is
	// itself never "occupied", so X̄ ≤ 14/15 and ρ never reaches ρ_max; a
	// fixed reference lets a window be busy throughout, at the price of
	// counting Starlink's per-slot propagation steps as queueing.
	BaseRTT time.Duration
}

// QueueSample is one measurement interval: bytes delivered over Dur, and
// one RTT sample (the interval's srtt).
type QueueSample struct {
	T     time.Duration // end of the interval
	Dur   time.Duration
	Bytes int64
	RTT   time.Duration
}

// QueueEstimate is the M/G/1 estimate over one window ending at T.
type QueueEstimate struct {
	T      time.Duration
	Mu     float64       // service rate μ = b/(8m), packets/s
	Busy   float64       // X̄: fraction of samples with the queue occupied
	Lambda float64       // arrival rate λ = μ·X̄, packets/s
	Rho    float64       // utilisation λ·E[S] = X̄, capped at RhoMax
	Wq     time.Duration // Pollaczek–Khinchine mean wait
	Q      float64       // mean queue λ·W_q (Little's law), packets
}

// EstimateQueue applies seed 000's M/G/1 approximation to a flow's samples.
// For each full window of length w ending at a sample (every Step):
//
//	μ = b/(8·m), b the window's mean throughput (bits/s)
//	X_j = 1(RTT_j − min_window RTT > threshold), X̄ = mean X_j
//	λ = μ·X̄,  ρ = min(λ/μ, ρ_max),  E[S] = 1/μ,  E[S²] = (1+c_s²)/μ²
//	W_q = λ·E[S²] / (2(1−ρ))          (Pollaczek–Khinchine)
//	Q   = λ·W_q                        (Little's law)
//
// Seed 000 lost the equation for X̄; the window mean of the indicators is
// the reading consistent with its "ρ = λ/μ". The queue-occupied test
// (RTT above the window's minimum, which absorbs the 15 s propagation
// steps) is ours. λ is kept uncapped, as the seed states λ = μ·X̄.
func EstimateQueue(samples []QueueSample, opt QueueOptions) ([]QueueEstimate, error) {
	opt = opt.withDefaults()
	if err := opt.validate(); err != nil {
		return nil, err
	}
	var out []QueueEstimate
	if len(samples) == 0 {
		return out, nil
	}
	lo := 0
	// Only full windows: the first ends w after the data start (within
	// half a sample, for iperf3's jittered interval ends).
	next := samples[0].T - samples[0].Dur + opt.Window
	for hi, s := range samples {
		if s.T < next-s.Dur/2 {
			continue
		}
		for lo < hi && samples[lo].T <= s.T-opt.Window {
			lo++
		}
		if e, ok := estimateWindow(samples[lo:hi+1], opt); ok {
			e.T = s.T
			out = append(out, e)
		}
		next = s.T + opt.Step
	}
	return out, nil
}

func estimateWindow(w []QueueSample, opt QueueOptions) (QueueEstimate, bool) {
	var bytes int64
	var dur time.Duration
	base := time.Duration(math.MaxInt64)
	for _, s := range w {
		bytes += s.Bytes
		dur += s.Dur
		if s.RTT > 0 {
			base = min(base, s.RTT)
		}
	}
	if dur <= 0 || bytes <= 0 {
		return QueueEstimate{}, false
	}
	if opt.BaseRTT > 0 {
		base = opt.BaseRTT
	}
	busy, n := 0, 0
	for _, s := range w {
		if s.RTT > 0 {
			n++
			if s.RTT-base > opt.BusyThreshold {
				busy++
			}
		}
	}
	if n == 0 {
		return QueueEstimate{}, false
	}
	var e QueueEstimate
	b := float64(bytes) * 8 / dur.Seconds()
	e.Mu = b / (8 * float64(opt.MSS))
	e.Busy = float64(busy) / float64(n)
	e.Lambda = e.Mu * e.Busy
	e.Rho = min(e.Lambda/e.Mu, opt.RhoMax)
	es2 := (1 + opt.Cs2) / (e.Mu * e.Mu)
	wq := e.Lambda * es2 / (2 * (1 - e.Rho))
	e.Wq = time.Duration(wq * float64(time.Second))
	e.Q = e.Lambda * wq
	return e, true
}

func (o QueueOptions) withDefaults() QueueOptions {
	if o.MSS == 0 {
		o.MSS = DefaultMSS
	}
	if o.Window == 0 {
		o.Window = DefaultQueueWindow
	}
	if o.RhoMax == 0 {
		o.RhoMax = DefaultRhoMax
	}
	if o.NoCs2 {
		o.Cs2 = 0
	} else if o.Cs2 == 0 {
		o.Cs2 = DefaultCs2
	}
	if o.BusyThreshold == 0 {
		o.BusyThreshold = DefaultBusyThreshold
	}
	return o
}

func (o QueueOptions) validate() error {
	var errs []error
	if o.MSS <= 0 {
		errs = append(errs, fmt.Errorf("mss %d: must be > 0", o.MSS))
	}
	if o.Window <= 0 || o.Step < 0 {
		errs = append(errs, fmt.Errorf("window %v, step %v: window must be > 0, step ≥ 0", o.Window, o.Step))
	}
	if o.RhoMax <= 0 || o.RhoMax >= 1 {
		errs = append(errs, fmt.Errorf("rho max %g: must be in (0, 1)", o.RhoMax))
	}
	if o.Cs2 < 0 || o.BusyThreshold < 0 || o.BaseRTT < 0 {
		errs = append(errs, fmt.Errorf("cs2 %g, busy threshold %v, base rtt %v: must be ≥ 0", o.Cs2, o.BusyThreshold, o.BaseRTT))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("queue estimate: %w", err)
	}
	return nil
}

// QueueSamples extracts the estimator's input from a flow's series.
func QueueSamples(series []Sample) []QueueSample {
	out := make([]QueueSample, len(series))
	for i, s := range series {
		out[i] = QueueSample{T: s.T, Dur: s.Dur, Bytes: s.Bytes, RTT: s.SRTT}
	}
	return out
}
